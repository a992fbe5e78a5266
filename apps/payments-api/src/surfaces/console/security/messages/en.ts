/** "Your login" in English: the member's own password, two-step login and language. Korean in ko.ts. */
export const en = {
  title: 'Your login',
  signedInAs: 'Signed in as {email} ({role, select, owner {owner} developer {developer} other {viewer}}).',

  'language.heading': 'Language',
  'language.text':
    'The console and the e-mails payhook sends you use this language, at this merchant. While you follow your browser, e-mails are in Korean.',
  'language.invalid': 'Choose one of the languages offered.',
  'language.label': 'Language of the console',
  'language.browser': "Your browser's ({language})",
  'language.save': 'Save language',
  'language.saved': 'Language saved.',

  'password.heading': 'Password',
  'password.current': 'Current password',
  'password.new': 'New password ({min} to {max} characters)',
  'password.again': 'New password again',
  'password.submit': 'Change password',
  'password.changed': 'Password changed. Your other sessions are signed out.',
  'password.wrong': 'Your current password is wrong.',

  'twoStep.off.heading': 'Two-step login is off',
  'twoStep.off.text': 'With it on, signing in also asks for a code from an authenticator app on your phone.',
  'twoStep.password': 'Your password',
  'twoStep.setUp': 'Set up two-step login',
  'twoStep.passwordWrong': 'That password is wrong.',
  'twoStep.turnOn.heading': 'Turn on two-step login',
  'twoStep.turnOn.text':
    'Scan this code with an authenticator app, or type the secret into it, then enter the 6-digit code it shows.',
  'twoStep.qr': 'QR code of your two-step login secret',
  'twoStep.secret': 'Secret:',
  'twoStep.confirmCode': '6-digit code from the app',
  'twoStep.turnOn': 'Turn on',
  'twoStep.wrongCode': 'That code is wrong or was used already. Wait for the next code and try again.',
  'twoStep.wrongSetupCode':
    'That code is wrong or was used already. Wait for the next code and try again. For a new QR code, open Your login again and set it up with your password.',
  'twoStep.codes.heading': 'Recovery codes',
  'twoStep.codes.text':
    'Two-step login is on. Keep these codes somewhere safe: each signs you in once when you have no phone. They are shown only now.',
  'twoStep.codes.done': 'Done',
  'twoStep.on.heading': 'Two-step login is on',
  'twoStep.on.unused': '{count, plural, one {# unused recovery code left.} other {# unused recovery codes left.}}',
  'twoStep.disableCode': 'A current code or a recovery code, to turn it off',
  'twoStep.disable': 'Turn off two-step login',
  'twoStep.disabled': 'Two-step login is off.',
} as const;

export type ConsoleSecurityKey = keyof typeof en;
