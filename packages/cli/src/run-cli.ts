import { verifyAuditFile } from './verify-audit-file.js';

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

const usage = `Usage: covenant <command>

Commands:
  verify-audit <file>   Verify a deal's audit trail export (deal-<id>-audit.json) offline:
                        recomputes every entry's SHA-256 hash chain and names the first
                        entry that does not verify. Exit code 0 when the chain is intact, 1 if not.

Options:
  -h, --help            Show this help`;

/** `covenant <command> [args]`: the exit code (0 ok, 1 the check failed, 2 usage error). */
export async function runCli(args: readonly string[], output: CliOutput): Promise<number> {
  const [command, ...rest] = args;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    (command === undefined ? output.err : output.out)(usage);
    return command === undefined ? 2 : 0;
  }
  if (command === 'verify-audit') {
    if (rest.includes('--help') || rest.includes('-h')) {
      output.out(usage);
      return 0;
    }
    if (rest.length !== 1) {
      output.err('verify-audit takes one file: covenant verify-audit export.json');
      return 2;
    }
    return verifyAuditFile(rest[0]!, output);
  }
  output.err(`Unknown command "${command}".\n\n${usage}`);
  return 2;
}
