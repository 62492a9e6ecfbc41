import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * The text of a secret file readable by the owner only, created with `generate()` when it does not
 * exist yet. Replicas sharing one volume may start at the same moment: the new file is written in
 * full under a temporary name and then published with `link`, which refuses to replace a file
 * another process published meanwhile (that one wins). A reader therefore never sees a file that
 * is created but not yet written.
 */
export async function readOrCreateSecretFile(
  path: string,
  generate: () => string | Promise<string>,
): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const text = await generate();
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, text, { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, path);
    return text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readFile(path, 'utf8');
  } finally {
    await unlink(temporary);
  }
}
