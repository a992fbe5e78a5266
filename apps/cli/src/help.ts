import { EVENT_TYPES } from './event-types';

// Every --help text, in a module of its own: `payhook --help` loads nothing else (it must start fast).

export const LISTEN_HELP = `Usage: payhook listen --forward-to <url> [--events <type,…>]

Forwards every event of your test mode to a handler on this machine, signed with a secret of this
session, over one outgoing connection to payhook (no inbound route needed). Prints the session's
whsec_… secret, then one line per event: time, type, event id and your handler's answer. Each
event also still goes to your webhook endpoints. Ctrl-C ends the session. Test keys only.

Options:
  --forward-to <url>    where to POST each event, e.g. http://localhost:4242/webhooks (required)
  --events <types>      only these types, comma separated: ${EVENT_TYPES.join(', ')}
  --api-key <key>       a test key (default: PAYHOOK_API_KEY)
  --api-url <url>       payhook's address (default: PAYHOOK_API_URL or http://localhost:3000)
  -h, --help            this help`;

export const TRIGGER_HELP = `Usage: payhook trigger <type>

Makes a test payment (and refund, cash receipt or escrow) that causes the event through the API and
the test helpers, and prints the ids it made. A cash_receipt.* event comes from a payment that asked
for a receipt when it was created: with a test mobile number for issued, with the failing test number
01000000000 for failed. An escrow.* event comes from an escrow payment (buyer buyer@example.com),
completed, shipped, then confirmed or rejected as its buyer would. <type> is one of:
  ${EVENT_TYPES.join('\n  ')}

Options:
  --amount <won>     the payment's amount in whole KRW (default 15000)
  --api-key <key>    a test key (default: PAYHOOK_API_KEY)
  --api-url <url>    payhook's address (default: PAYHOOK_API_URL or http://localhost:3000)
  -h, --help         this help`;

export const PAYMENTS_HELP = `Usage: payhook payments list [options]
       payhook payments get <pay_id>

Thin calls of GET /v1/payments and GET /v1/payments/{id}; prints the API's JSON, each
payment with its VAT split (taxFreeAmount, vat, suppliedAmount), metadata and escrow (null
unless it is an escrow payment: its status, carrier, tracking number and dates).

Options of list:
  --status <s,…>        pending, completed, failed, canceled, expired (comma list)
  --order-id <id>       one order's payments
  --customer-id <id>    one customer's payments
  --limit <n>           1–100 (default 20)
  --cursor <cursor>     nextCursor of the previous page
Options of both:
  --api-key <key>       (default: PAYHOOK_API_KEY)
  --api-url <url>       (default: PAYHOOK_API_URL or http://localhost:3000)
  -h, --help            this help`;

export const EVENTS_HELP = `Usage: payhook events resend <evt_id> [--endpoint <we_id>]

Sends the event once more (POST /v1/events/{id}/redeliver): the same id and body, a fresh signature,
to every endpoint that takes its type, or to the one endpoint named.

Options:
  --endpoint <we_id>   only this endpoint
  --api-key <key>      (default: PAYHOOK_API_KEY)
  --api-url <url>      (default: PAYHOOK_API_URL or http://localhost:3000)
  -h, --help           this help`;

export const HELP = `Usage: payhook <command> [options]

The payhook developer CLI, for a test key in PAYHOOK_API_KEY and payhook at
PAYHOOK_API_URL (default http://localhost:3000).

Commands:
  listen --forward-to <url>   forward your test mode's events, signed, to a local handler
  trigger <type>              make a test payment (and refund, receipt or escrow) that causes an event
  payments list|get           read payments
  events resend <evt_id>      send an event again

Run payhook <command> --help for a command's options.
Exit codes: 0 done, 1 payhook refused or the command failed, 2 wrong usage, 3 payhook unreachable.`;
