// A design cannot talk to anyone (issue 37, row 3). An invoice arrives with a design that tries every
// channel out of the preview (test/fixtures/preview/channels-design.xslt: markup that loads, scripts
// that send, WebRTC with a STUN and a TURN server) while a loopback HTTP server (WebSocket too), a UDP
// listener and a TCP listener wait. In the document preview and in the template studio, where a
// design's scripts are off, nothing arrives. In the studio with "Run Design Scripts" turned on, every
// channel but WebRTC from a frame the design makes stays shut, and that one does reach the UDP listener:
// what README says ("What a design can and cannot do").
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as dgram from 'node:dgram';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import type { Workbench } from '../index';
import { designShows, openFile, openStudio, openWorkbench, previewPage, repoRoot, steps, waitUntil, workspaceFolder } from '../index';

const open: Workbench[] = [];
after(async () => {
  for (const wb of open) await wb.close();
});

/** What reached the listeners: a line per request, datagram or connection. */
const arrived: string[] = [];
let httpServer: http.Server;
let tcpServer: net.Server;
let udpSocket: dgram.Socket;
before(async () => {
  httpServer = http.createServer((req, res) => {
    arrived.push(`http ${req.method} ${req.url}`);
    res.setHeader('access-control-allow-origin', '*');
    res.end('LEAKED');
  });
  httpServer.on('upgrade', (req, socket) => {
    arrived.push(`websocket ${req.url}`);
    socket.destroy();
  });
  tcpServer = net.createServer((socket) => {
    arrived.push('tcp connection');
    socket.once('data', (d) => arrived.push(`tcp ${d.length} bytes`));
    setTimeout(() => socket.destroy(), 500);
  });
  udpSocket = dgram.createSocket('udp4');
  udpSocket.on('message', (m) => arrived.push(`udp ${m.length} bytes`));
  await Promise.all([
    new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve)),
    new Promise<void>((resolve) => tcpServer.listen(0, '127.0.0.1', resolve)),
    new Promise<void>((resolve) => udpSocket.bind(0, '127.0.0.1', resolve)),
  ]);
});
after(async () => {
  udpSocket.close();
  await new Promise<void>((resolve) => tcpServer.close(() => resolve()));
  await new Promise<void>((resolve) => httpServer.close(() => resolve()));
});

const portOf = (s: { address(): unknown }) => (s.address() as { port: number }).port;

/** The channels design with the listeners' addresses; `nested`: it also tries WebRTC from a frame it makes. */
function channelsDesign(nested: boolean): string {
  const httpBase = `http://127.0.0.1:${portOf(httpServer)}`;
  return fs
    .readFileSync(path.join(repoRoot, 'test', 'fixtures', 'preview', 'channels-design.xslt'), 'utf8')
    .replaceAll('HTTP/', `${httpBase}/`)
    .replaceAll('WS/', `ws://127.0.0.1:${portOf(httpServer)}/`)
    .replaceAll('127.0.0.1:UDP', `127.0.0.1:${portOf(udpSocket)}`)
    .replaceAll('127.0.0.1:TCP', `127.0.0.1:${portOf(tcpServer)}`)
    .replace('if (NESTED)', `if (${nested})`);
}

/** The sample invoice with `design` as its embedded design, as a supplier would send it. */
function invoiceWith(design: string): string {
  const sample = fs.readFileSync(path.join(repoRoot, 'media', 'samples', 'invoice-TEMELFATURA.xml'), 'utf8');
  const replaced = sample.replace(/(<cbc:EmbeddedDocumentBinaryObject[^>]*filename=")[^"]*("[^>]*>)[^<]*(<\/cbc:EmbeddedDocumentBinaryObject>)/, `$1channels.xslt$2${Buffer.from(design).toString('base64')}$3`);
  assert.notEqual(replaced, sample, 'the sample has an embedded design to replace');
  return replaced;
}

/** Gives every attempt time (a refresh after 3 s, ICE gathers, the design navigates after 6 s), then says what arrived. */
async function arrivedWithin(wb: Workbench, ms = 9_000): Promise<string[]> {
  await wb.page.waitForTimeout(ms);
  return [...arrived];
}

const studioOf = (wb: Workbench, design: string) => openStudio(wb, design, 'invoice-TEMELFATURA.xml');

test('an invoice whose design tries every channel, WebRTC included: in the preview nothing arrives', { timeout: 240_000 }, async () => {
  const wb = await openWorkbench({ scenario: 'design-channels' });
  open.push(wb);
  await steps(wb, async () => {
    const workspace = workspaceFolder(wb.page);
    fs.writeFileSync(path.join(workspace, 'invoice-channels.xml'), invoiceWith(channelsDesign(true)));
    arrived.length = 0;
    await openFile(wb.page, 'invoice-channels.xml');
    await wb.runCommand('Nilvera: Preview Document');
    const preview = await previewPage(wb, 'Preview invoice-channels.xml');
    const text = await designShows(preview, ['Channels design', 'ID=ORN2026000000101', 'script:not run', 'Not shown: scripts are off']);
    assert.ok(!text.includes('script:ran'), text);
    assert.equal(await preview.locator('iframe#design').getAttribute('sandbox'), '', 'a frame with no permissions');
    assert.match(await preview.locator('#banner').innerText(), /does not run a design's scripts, so what they draw \(such as a QR code\) is not shown/);
    assert.equal(await preview.locator('#scripts').isVisible(), false, 'the preview offers no way to run them');
    assert.deepEqual(await arrivedWithin(wb), [], 'nothing reached the HTTP, TCP or UDP listeners');
    await designShows(preview, ['Channels design', 'script:not run']); // and the frame is still there
    await wb.screenshot('preview: the channels design rendered, its scripts marked as not run');
  });
});

test('the same design in the template studio: scripts off, nothing arrives; turned on, only WebRTC from a frame of its own gets out', { timeout: 360_000 }, async () => {
  const wb = open[0];
  await steps(wb, async () => {
    const workspace = workspaceFolder(wb.page);
    fs.writeFileSync(path.join(workspace, 'channels.xslt'), channelsDesign(true));
    fs.writeFileSync(path.join(workspace, 'channels-direct.xslt'), channelsDesign(false));
    arrived.length = 0;
    const studio = await studioOf(wb, 'channels.xslt');
    const text = await designShows(studio, ['Channels design', 'script:not run', 'Not shown: scripts are off']);
    assert.ok(!text.includes('script:ran'), text);
    assert.equal(await studio.locator('iframe#design').getAttribute('sandbox'), '');
    assert.equal(await studio.locator('#scripts').getAttribute('aria-pressed'), 'false');
    assert.match(await studio.locator('#banner').innerText(), /which are off: what they draw \(such as a QR code\) is not shown\. For a design you trust, turn on "Run Design Scripts"/);
    assert.deepEqual(await arrivedWithin(wb), [], 'nothing reached the HTTP, TCP or UDP listeners from the studio');
    await wb.screenshot('studio: scripts off, nothing arrived');

    // Turned on for a design that only tries the direct ways: its script runs, WebRTC is taken from its
    // window, and every other channel stays shut by the policies and the sandbox.
    const direct = await studioOf(wb, 'channels-direct.xslt');
    await designShows(direct, ['script:not run']);
    await direct.locator('#scripts').click();
    const ran = await designShows(direct, ['script:ran', 'webrtc:unavailable', 'top:tried']);
    assert.equal(await direct.locator('#scripts').getAttribute('aria-pressed'), 'true');
    assert.equal(await direct.locator('iframe#design').getAttribute('sandbox'), 'allow-scripts');
    assert.match(await direct.locator('#banner').innerText(), /scripts are running\. A script can send what the design shows over the network through WebRTC/);
    await wb.screenshot('studio: scripts on, the direct channels shut');
    assert.deepEqual(await arrivedWithin(wb), [], `nothing arrived with scripts on either (the design said: ${ran})`);

    // What README says cannot be stopped: with scripts on, a design that runs a script in a frame of its
    // own (with the nonce it reads from its own script element) gets WebRTC there, and its STUN request
    // reaches the UDP listener. When this fails, the webview has learnt to block WebRTC (CSP's
    // webrtc 'block', which the frame's policy sets): README's "What a design can and cannot do" should say so.
    const nested = await studioOf(wb, 'channels.xslt');
    await nested.locator('#scripts').click();
    await designShows(nested, ['script:ran', 'webrtc:unavailable', 'nested-webrtc:tried']);
    const leaked = await waitUntil(async () => (arrived.some((a) => a.startsWith('udp')) ? [...arrived] : undefined), "the nested frame's STUN request", 20_000, 250);
    assert.ok(leaked.every((a) => a.startsWith('udp') || a.startsWith('tcp')), `only WebRTC got out: ${leaked.join(', ')}`);

    // Off again: the frame loses its scripts at once.
    await nested.locator('#scripts').click();
    await designShows(nested, ['script:not run', 'Not shown: scripts are off']);
    assert.equal(await nested.locator('iframe#design').getAttribute('sandbox'), '');
    await wb.screenshot('studio: scripts off again');
  });
});
