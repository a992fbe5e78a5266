import type { PaymentStatus } from '@payhook/sdk';
import { asCliError, connect, parseCommand } from '../cli-context';
import { EXIT, usageError } from '../cli-error';
import { PAYMENTS_HELP } from '../help';
import { print, printJson } from '../output';

export async function paymentsCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(
    args,
    {
      status: { type: 'string' },
      'order-id': { type: 'string' },
      'customer-id': { type: 'string' },
      limit: { type: 'string' },
      cursor: { type: 'string' },
    },
    'payments',
  );
  const [action, id, extra] = positionals;
  if (values.help || action === undefined) {
    print(PAYMENTS_HELP);
    return action === undefined && !values.help ? EXIT.usage : EXIT.ok;
  }
  if (action !== 'list' && action !== 'get') throw usageError(`Unknown payments command "${action}"`, 'payments');
  if (action === 'get' && id === undefined)
    throw usageError('Which payment? payhook payments get <pay_id>', 'payments');
  const unexpected = action === 'get' ? extra : id;
  if (unexpected !== undefined) throw usageError(`Unexpected argument "${unexpected}"`, 'payments');
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && !Number.isSafeInteger(limit))
    throw usageError('--limit must be a whole number', 'payments');
  const { client, apiUrl } = connect(values, 'payments');
  try {
    if (action === 'get') {
      printJson({ data: await client.getPayment(id) });
    } else {
      printJson(
        await client.listPayments({
          status: values.status?.split(',') as PaymentStatus[] | undefined,
          orderId: values['order-id'],
          customerId: values['customer-id'],
          limit,
          cursor: values.cursor,
        }),
      );
    }
    return EXIT.ok;
  } catch (error) {
    throw asCliError(error, apiUrl);
  }
}
