import type { AuthContext } from '@payhook/auth';
import { ApiKeyLookup } from './api-key-lookup';
import type { MerchantsRepository } from './merchants.repository';

const auth: AuthContext = {
  keyId: 'key_1',
  merchantId: 'mch_1',
  mode: 'test',
  livemode: false,
  merchantStatus: 'integrating',
};

function lookupWith(touch: (id: string) => Promise<void>, resolved: AuthContext | null = auth) {
  const repository = { resolveActiveKey: jest.fn(async () => resolved), touchApiKey: jest.fn(touch) };
  return { lookup: new ApiKeyLookup(repository as unknown as MerchantsRepository), repository };
}

describe('ApiKeyLookup', () => {
  it('records a key use at most once a minute per key', async () => {
    const { lookup, repository } = lookupWith(async () => undefined);
    await lookup.resolve('hash');
    await lookup.resolve('hash');
    expect(repository.touchApiKey).toHaveBeenCalledTimes(1);
    expect(repository.touchApiKey).toHaveBeenCalledWith('key_1');
  });

  it('answers without waiting for the write', async () => {
    const { lookup } = lookupWith(() => new Promise<void>(() => undefined));
    await expect(lookup.resolve('hash')).resolves.toEqual(auth);
  });

  it('logs a failed write instead of failing the request', async () => {
    let fail: (error: Error) => void = () => undefined;
    const { lookup } = lookupWith(() => new Promise<void>((_, reject) => (fail = reject)));
    const warn = jest.spyOn(lookup['logger'], 'warn').mockImplementation(() => undefined);
    await expect(lookup.resolve('hash')).resolves.toEqual(auth);
    fail(new Error('connection lost'));
    await new Promise(process.nextTick);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('connection lost'));
  });

  it('records nothing for an unknown key', async () => {
    const { lookup, repository } = lookupWith(async () => undefined, null);
    await expect(lookup.resolve('hash')).resolves.toBeNull();
    expect(repository.touchApiKey).not.toHaveBeenCalled();
  });
});
