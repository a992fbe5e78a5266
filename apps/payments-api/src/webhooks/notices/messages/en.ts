/**
 * The English of the e-mails that tell a merchant's owners about a webhook endpoint in trouble
 * (notice-email.ts). ICU MessageFormat; times come in formatted in the merchant's zone, the endpoint
 * named by its id and host only. Plain text: a message's `\n` are the e-mail's lines. Korean in ko.ts.
 */
export const en = {
  'duration.second': '{count, plural, one {# second} other {# seconds}}',
  'duration.minute': '{count, plural, one {# minute} other {# minutes}}',
  'duration.hour': '{count, plural, one {# hour} other {# hours}}',
  'duration.day': '{count, plural, one {# day} other {# days}}',

  endpoint: 'Endpoint: {id} at {host}, {mode, select, live {live} other {test}} mode',
  'endpoint.described': 'Endpoint: {id} at {host} ("{description}"), {mode, select, live {live} other {test}} mode',
  lastError: 'Last error: {error}',

  'failing.subject': 'payhook: webhooks to {host} have failed for {duration}',
  'failing.text':
    'Every automatic delivery to a webhook endpoint of {merchant} has failed since {since}.\n\n{endpoint}\n\n' +
    'payhook keeps retrying each event on its schedule. If the endpoint is still failing at {disablesAt}, ' +
    'payhook disables it and keeps new events as failed without sending them.\n\n' +
    'See its attempts and health in the console: {consoleUrl}\n',

  'disabled.subject': 'payhook: a webhook endpoint at {host} is disabled',
  'disabled.text':
    'payhook disabled a webhook endpoint of {merchant} at {at}: every automatic delivery to it had failed ' +
    'since {since}.\n\n{endpoint}\n\n' +
    'Nothing is sent to it now; its events are kept as failed (endpoint_disabled). Once it answers again, ' +
    'enable it in the console (or save it through the API) and send the failed events again with Recover: ' +
    '{consoleUrl}\n',

  'recovered.subject': 'payhook: webhooks to {host} are delivered again',
  'recovered.text':
    'A webhook endpoint of {merchant} answered again at {at}, after failing since {since}.\n\n{endpoint}\n\n' +
    'Events that failed meanwhile can be sent again with Recover in the console: {consoleUrl}\n',
} as const;

export type NoticeMailKey = keyof typeof en;
