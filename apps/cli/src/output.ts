/** Colours only where a person reads them: a TTY, without NO_COLOR (https://no-color.org). */
function colours(stream: NodeJS.WriteStream): boolean {
  return Boolean(stream.isTTY) && !process.env.NO_COLOR && process.env.TERM !== 'dumb';
}

const paint = (stream: NodeJS.WriteStream, code: number) => (text: string) =>
  colours(stream) ? `\u001b[${code}m${text}\u001b[0m` : text;

export const style = {
  bold: paint(process.stdout, 1),
  dim: paint(process.stdout, 2),
  green: paint(process.stdout, 32),
  yellow: paint(process.stdout, 33),
  red: paint(process.stdout, 31),
  cyan: paint(process.stdout, 36),
  errorRed: paint(process.stderr, 31),
};

export function print(line = ''): void {
  process.stdout.write(`${line}\n`);
}

/** One line on stderr: errors and notes that are not the command's output. */
export function note(line: string): void {
  process.stderr.write(`${line}\n`);
}

/**
 * A progress line on stderr ("connecting…") that the next line replaces on a TTY; elsewhere it is an
 * ordinary line, so logs keep it.
 */
export function progress(text: string): { done: () => void } {
  const tty = Boolean(process.stderr.isTTY);
  process.stderr.write(tty ? `${text}` : `${text}\n`);
  return {
    done: () => {
      if (tty) process.stderr.write('\r\u001b[2K');
    },
  };
}

/** Pretty JSON on stdout: what the thin API commands print, for people and for jq alike. */
export function printJson(value: unknown): void {
  print(JSON.stringify(value, null, 2));
}
