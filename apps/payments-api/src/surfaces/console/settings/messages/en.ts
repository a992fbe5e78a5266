/**
 * The console's Settings page in English: the merchant's time zone and the controller's notice and
 * error. Korean in ko.ts, with the same keys.
 */
export const en = {
  'page.title': 'Settings',
  'zone.heading': 'Time zone',
  'zone.intro': 'Every time in the console is shown in this zone, with the zone named. Now it is {now} in {zone}.',
  'zone.label': 'IANA time zone',
  'zone.save': 'Save time zone',
  'zone.ownerOnly': 'An owner can change the time zone.',
  'zone.saved': 'Time zone saved: every time is now shown in it.',
  'zone.invalid': 'Enter an IANA time zone such as Asia/Seoul or America/New_York.',
} as const;

export type SettingsKey = keyof typeof en;
