import type { SettingsKey } from './en';

/** The Settings page in Korean: en.ts's keys, in the words of a Korean shop's back office. */
export const ko: Readonly<Record<SettingsKey, string>> = {
  'page.title': '설정',
  'zone.heading': '시간대',
  'zone.intro':
    '콘솔의 모든 시각은 이 시간대 기준으로 표시되며, 시각 뒤에 시간대가 함께 표기됩니다. 지금 {zone} 시각은 {now}입니다.',
  'zone.label': 'IANA 시간대',
  'zone.save': '시간대 저장',
  'zone.ownerOnly': '시간대는 소유자만 변경할 수 있습니다.',
  'zone.saved': '시간대를 저장했습니다. 이제 모든 시각이 이 시간대로 표시됩니다.',
  'zone.invalid': 'Asia/Seoul, America/New_York과 같은 IANA 시간대 이름을 입력해 주세요.',
};
