/**
 * The console's shared English: the frame of every page (navigation, banners, the mode switch),
 * status names, error pages and the messages more than one section uses. ICU MessageFormat; each
 * section keeps its own catalog beside its views. Korean in ko.ts, with the same keys.
 */
export const en = {
  'layout.brand': 'payhook console',
  'layout.title': '{title} · payhook console',
  'layout.titleTest': '{title} (test mode) · payhook console',
  'layout.nav': 'Console',
  'layout.nav.payments': 'Payments',
  'layout.nav.settlements': 'Settlements',
  'layout.nav.developers': 'Developers',
  'layout.nav.team': 'Team',
  'layout.nav.audit': 'Audit log',
  'layout.nav.settings': 'Settings',
  'layout.nav.security': 'Your login ({email})',
  'layout.logout': 'Log out',
  'layout.testMode.title': 'Test mode.',
  'layout.testMode.text': 'Test payments, refunds and settlements: no real money moves.',
  'layout.modes': 'Mode',
  'layout.mode.test': 'Test',
  'layout.mode.live': 'Live',

  'banner.title': 'Webhooks are not reaching {count, plural, one {an endpoint} other {some endpoints}}.',
  'banner.live': 'Live endpoint {url} is disabled: nothing is sent to it until it is enabled again.',
  'banner.test': 'Test endpoint {url} is disabled: nothing is sent to it until it is enabled again.',
  'banner.liveFailing': 'Live endpoint {url} has failed every automatic delivery since {time}.',
  'banner.testFailing': 'Test endpoint {url} has failed every automatic delivery since {time}.',
  'banner.open': 'Open Developers ({mode, select, live {live} other {test}})',

  'status.pending': 'pending',
  'status.completed': 'completed',
  'status.failed': 'failed',
  'status.canceled': 'canceled',
  'status.expired': 'expired',
  'status.succeeded': 'succeeded',
  'status.skipped': 'skipped',
  'status.review': 'review',
  'status.integrating': 'integrating',
  'status.live': 'live',
  'status.running': 'running',
  'status.passed': 'passed',
  'status.owner': 'owner',
  'status.developer': 'developer',
  'status.viewer': 'viewer',
  'status.accepted': 'accepted',
  'status.revoked': 'revoked',
  'status.open': 'open',
  'status.resolved': 'resolved',
  'status.matched': 'matched',
  'status.available': 'available',
  'status.held': 'held',
  'status.redeemed': 'redeemed',
  'status.enabled': 'enabled',
  'status.disabled': 'disabled',
  'status.failing': 'failing',
  'status.expiring': 'expiring',
  'status.issued': 'issued',
  'status.awaiting_shipment': 'awaiting shipment',
  'status.shipped': 'shipped',
  'status.confirmed': 'confirmed',
  'status.rejected': 'rejected',

  'error.back': 'Back to the console',
  'error.notFound.title': 'Not found',
  'error.notFound': 'There is nothing here, or it belongs to another account or mode.',
  'error.roleRefused.title': 'Not allowed',
  'error.roleRefused':
    'This needs the {needed, select, owner {owner} developer {developer} other {viewer}} role; you are {role, select, owner {owner} developer {developer} other {viewer}}. Ask an owner of this account.',
  'error.formExpired.title': 'Form expired',
  'error.formExpired':
    'This form has expired or did not come from the console. Go back, reload the page and try again.',
  'error.busy.title': 'Busy',
  'error.refused.title': 'Not possible',
  'error.unavailable.title': 'Briefly unavailable',
  'error.unavailable': 'The console is briefly unavailable. Reload the page in a few seconds.',
  'error.internal.title': 'Something went wrong',
  'error.internal': 'Something went wrong on our side. Quote {requestId} when asking.',

  'throttle.signIn':
    'Too many failed sign-ins from your network. Signing in from here is paused for {minutes, plural, one {# more minute} other {# more minutes}}; try again then.',
  'throttle.codes':
    'Too many wrong codes for this login. Codes are paused for {minutes, plural, one {# more minute} other {# more minutes}}, and we have e-mailed you about it.',
  'throttle.resets':
    'Too many reset links were asked for from your network. Asking is paused for {minutes, plural, one {# more minute} other {# more minutes}}; try again then.',

  'password.length': 'The new password needs {min} to {max} characters.',
  'password.differ': 'The two new passwords differ.',
} as const;

export type ConsoleSharedKey = keyof typeof en;
