/**
 * The console's sign-in pages in English: log in, the two-step code, the choice of merchant, and a
 * forgotten password. Korean in ko.ts, with the same keys.
 */
export const en = {
  'login.title': 'Log in',
  'login.email': 'Email',
  'login.password': 'Password',
  'login.submit': 'Log in',
  'login.forgot': 'Forgot your password?',
  'login.setByApproval': 'The login is set when payhook approves your merchant account.',
  'login.refused': 'Wrong email or password.',
  'login.formExpired': 'This login form has expired. Open the login page again.',
  'login.notice.joined': 'You joined the team. Log in with your e-mail and the password you just set.',
  'login.notice.passwordReset':
    'Your new password is set for your login at every merchant, and every session of those logins has ended. Log in with it.',

  'secondStep.title': 'Two-step login',
  'secondStep.code': 'Code from your authenticator app, or a recovery code',
  'secondStep.submit': 'Continue',
  'secondStep.other': 'Sign in as someone else',
  'secondStep.recovery':
    'A recovery code works once. Lost both? Another owner of your account can remove and invite you again.',
  'secondStep.formExpired': 'This form has expired. Open the login page again.',
  'secondStep.wrongCode': 'That code is wrong or was used already. Wait for the next code and try again.',
  'secondStep.ended': 'Too many wrong codes: sign in again with your password.',

  'choose.title': 'Choose a merchant',
  'choose.text': 'Your e-mail and password open the console of more than one merchant. Which one now?',
  'choose.later': 'To open another one later, log out and log in again.',
  'choose.gone':
    'That choice was made already or has expired (it is open for {minutes, plural, one {# minute} other {# minutes}}). Log in again.',

  'forgot.title': 'Forgot your password',
  'forgot.text':
    'We e-mail a link that sets a new password. It works once, for {minutes, plural, one {# minute} other {# minutes}}.',
  'forgot.submit': 'Send the link',
  'forgot.back': 'Back to the login',
  'forgot.sent.title': 'Check your e-mail',
  'forgot.sent':
    'If {email} has a console login, an e-mail with a link to set a new password is on its way. The link works once, for {minutes, plural, one {# minute} other {# minutes}}.',
  'forgot.noMail':
    'No e-mail? Check the address, or ask another owner of your account to remove your login and invite you again.',
  'forgot.unavailable':
    'This payhook sends no e-mail, so it cannot send a reset link. Another owner of your account can remove your login and invite you again.',

  'reset.title': 'Set a new password',
  'reset.for': 'For the console login {email}. Every session of this login ends.',
  'reset.password': 'New password ({min} to {max} characters)',
  'reset.again': 'New password again',
  'reset.submit': 'Set the password',
  'reset.unusable.title': 'Link not usable',
  'reset.unusable':
    'This link was used already, has expired (links work for {minutes, plural, one {# minute} other {# minutes}}) or is unknown. Ask for a new one on the login page.',
} as const;

export type ConsoleAuthKey = keyof typeof en;
