import { SetMetadata } from '@nestjs/common';

export const TEST_MODE_ONLY = 'payhook:test-mode-only';

/** Marks a route that live keys may never call (test helpers, integration tests). */
export const TestModeOnly = () => SetMetadata(TEST_MODE_ONLY, true);
