// The extension's LogOutputChannel, created on first use, and the request logger handed to the
// API client (it receives method, path, status and time only; never headers or bodies).
import type { RequestLogEntry } from '../api/http';
import * as vscode from 'vscode';
import { OutputChannelName } from '../constants';
import { redact } from './redact';

let channel: vscode.LogOutputChannel | undefined;

export function logChannel(): vscode.LogOutputChannel {
  return (channel ??= vscode.window.createOutputChannel(OutputChannelName, { log: true }));
}

export function disposeLogChannel(): void {
  channel?.dispose();
  channel = undefined;
}

export const log = {
  info: (message: string): void => logChannel().info(redact(message)),
  warn: (message: string): void => logChannel().warn(redact(message)),
  error: (message: string): void => logChannel().error(redact(message)),
};

export const requestLogger = {
  /** One line per request: `GET /general/Company 200 35 ms`, plus the attempt and error when present. */
  request(info: RequestLogEntry): void {
    // Never a query string: some operations carry credentials there (PUT /InteractiveTaxOffice).
    const parts = [info.method.toUpperCase(), info.path.split('?', 1)[0], info.status !== undefined ? String(info.status) : '-', `${Math.round(info.ms)} ms`];
    if (info.attempt > 1) parts.push(`(attempt ${info.attempt})`);
    if (info.error) parts.push(`: ${info.error}`);
    const line = parts.join(' ');
    if (info.error || (info.status !== undefined && info.status >= 400)) log.warn(line);
    else log.info(line);
  },
};
