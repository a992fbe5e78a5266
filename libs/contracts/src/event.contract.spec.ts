import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PAYHOOK_VERSION, WEBHOOK_USER_AGENT } from './event.contract';

describe('PAYHOOK_VERSION', () => {
  it('is the version in package.json, as the webhook User-Agent says', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as { version: string };
    expect(PAYHOOK_VERSION).toBe(pkg.version);
    expect(WEBHOOK_USER_AGENT).toBe(`payhook-webhooks/${pkg.version}`);
  });
});
