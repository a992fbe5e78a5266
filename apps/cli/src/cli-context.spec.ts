import { EXIT } from './cli-error';
import { parseCommand } from './cli-context';

describe('parseCommand', () => {
  const options = { limit: { type: 'string' } } as const;

  it.each([
    [['--json'], 'Unknown option --json. (see payhook payments --help)'],
    [['-x'], 'Unknown option -x. (see payhook payments --help)'],
    [['--limit'], '--limit needs a value. (see payhook payments --help)'],
    [['--help=1'], '--help takes no value. (see payhook payments --help)'],
  ])('says what is wrong with %j in one line, without util advice', (args, line) => {
    let thrown: { message: string; exitCode: number } | undefined;
    try {
      parseCommand(args, options, 'payments');
    } catch (error) {
      thrown = error as { message: string; exitCode: number };
    }
    expect(thrown?.message).toBe(line);
    expect(thrown?.exitCode).toBe(EXIT.usage);
  });

  it('takes the options it knows', () => {
    expect(parseCommand(['list', '--limit', '5'], options, 'payments').values.limit).toBe('5');
  });
});
