// How the trees and commands reach the API: the shell's client of the active profile.
import type { NilveraClient } from '../api';

export type ClientSource = () => Promise<NilveraClient>;
