export const MERCHANT_STATUSES = ['review', 'integrating', 'live'] as const;
export type MerchantStatus = (typeof MERCHANT_STATUSES)[number];

export const API_KEY_MODES = ['test', 'live'] as const;
export type ApiKeyMode = (typeof API_KEY_MODES)[number];

export const API_KEY_PREFIXES: Record<ApiKeyMode, string> = {
  test: 'svc_test_',
  live: 'svc_live_',
};

export const DEFAULT_TIME_ZONE = 'Asia/Seoul';
