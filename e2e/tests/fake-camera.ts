import { writeFile } from 'node:fs/promises';
import { type Browser, chromium } from '@playwright/test';
import { encode } from 'uqr';

/** The fake camera's picture: square, even sides (4:2:0 chroma halves them). */
const side = 480;

/**
 * A Y4M video (the raw format Chromium's fake camera plays in a loop) showing `text` as a QR code,
 * black on white, centred with a quiet zone: what a phone held up to the other party's screen sees.
 */
export async function writeQrVideo(text: string, file: string): Promise<void> {
  const { data, size } = encode(text, { border: 4 });
  const scale = Math.floor(side / size);
  const offset = Math.floor((side - size * scale) / 2);
  const luma = Buffer.alloc(side * side, 235);
  for (let y = 0; y < size * scale; y++) {
    for (let x = 0; x < size * scale; x++) {
      if (data[Math.floor(y / scale)]?.[Math.floor(x / scale)]) luma[(offset + y) * side + offset + x] = 16;
    }
  }
  // No colour: both chroma planes at their neutral value.
  const chroma = Buffer.alloc((side / 2) * (side / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${side} H${side} F10:1 Ip A1:1 C420jpeg\n`);
  await writeFile(file, Buffer.concat([header, ...Array.from({ length: 10 }, () => frame)]));
}

/**
 * A second Chromium whose camera plays `video` (see writeQrVideo), and which grants camera access
 * without asking: the test's stand-in for a phone pointed at the other party's QR code.
 */
export function launchWithFakeCamera(video: string): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
  });
}
