import { DataSource, type MigrationInterface } from 'typeorm';
import { dataSourceOptions } from '@payhook/persistence';
import { MerchantTeam1765900000000 } from '../../libs/persistence/src/migrations/1765900000000-merchant-team';
import { PasswordResets1766500000000 } from '../../libs/persistence/src/migrations/1766500000000-password-resets';
import { LoginsPerMerchant1766700000000 } from '../../libs/persistence/src/migrations/1766700000000-logins-per-merchant';
import { MemberLanguage1767100000000 } from '../../libs/persistence/src/migrations/1767100000000-member-language';
import { CONSOLE_PASSWORD, ConsoleClient, approvedMerchant } from '../support/console-client';
import { isolatedServices, type IsolatedServices } from '../support/isolated-services';
import { PaymentsApiHarness } from '../support/payments-api.harness';

/** Issue 29: the console login of a merchant approved before teams is its first owner after the migration. */
describe('migrating console logins to team members', () => {
  let services: IsolatedServices;
  let api: PaymentsApiHarness;

  beforeAll(async () => {
    services = await isolatedServices('team_migration');
    api = await PaymentsApiHarness.start(services.env);
  });
  afterAll(async () => {
    await api?.stop();
    await services?.drop();
  });

  /** The team migration, and the later ones whose tables refer to its members: undone newest first. */
  const TEAM_MIGRATIONS = [
    new MerchantTeam1765900000000(),
    new PasswordResets1766500000000(),
    new LoginsPerMerchant1766700000000(),
    new MemberLanguage1767100000000(),
  ];

  async function migrate(direction: 'up' | 'down', migrations: MigrationInterface[] = TEAM_MIGRATIONS): Promise<void> {
    const db = await new DataSource(
      dataSourceOptions({ url: services.env.DATABASE_URL, entities: [], applicationName: 'payhook-tests' }),
    ).initialize();
    const runner = db.createQueryRunner();
    try {
      const ordered = direction === 'up' ? migrations : [...migrations].reverse();
      for (const migration of ordered) await migration[direction](runner);
    } finally {
      await runner.release();
      await db.destroy();
    }
  }

  it('makes the login an owner with its password, and the merchant signs in as before', async () => {
    const shop = await approvedMerchant(api, { name: 'Before Teams' });
    // As the previous release stored it: the password hash on the merchant's row, no members.
    await migrate('down');
    const [row] = await api.sql<{ console_password_hash: string | null }>(
      `SELECT console_password_hash FROM merchants WHERE id = $1`,
      [shop.merchantId],
    );
    expect(row.console_password_hash).toMatch(/^scrypt\$/);
    await migrate('up');

    const members = await api.sql<{ email: string; role: string }>(
      `SELECT email, role FROM merchant_members WHERE merchant_id = $1`,
      [shop.merchantId],
    );
    expect(members).toEqual([{ email: shop.email, role: 'owner' }]);
    const owner = await ConsoleClient.login(api, shop.email, CONSOLE_PASSWORD);
    const team = await owner.get('/console/team').expect(200);
    expect(team.text).toContain(shop.email);
    expect(team.text).toContain('Make invite');
  });

  it('marks an invite open at the upgrade as shown to its owner: accepting it proves no address', async () => {
    const shop = await approvedMerchant(api, { name: 'Inviting Before' });
    const owner = await ConsoleClient.login(api, shop.email, CONSOLE_PASSWORD);
    await owner.post('/console/team/invites', { email: 'before@team.example', role: 'viewer' }).expect(200);
    const loginsPerMerchant = [new LoginsPerMerchant1766700000000()];
    await migrate('down', loginsPerMerchant);
    await migrate('up', loginsPerMerchant);
    const [invite] = await api.sql<{ link_shown: boolean }>(
      `SELECT link_shown FROM member_invites WHERE email = 'before@team.example'`,
    );
    expect(invite.link_shown).toBe(true);
    const [first] = await api.sql<{ address_proven: boolean }>(
      `SELECT address_proven FROM merchant_members WHERE email = $1`,
      [shop.email],
    );
    expect(first.address_proven).toBe(true);
  });

  it('goes back to one login per address only while no address has logins at several merchants', async () => {
    const first = await approvedMerchant(api, { name: 'First Login' });
    const created = await api.admin().post('/admin/v1/merchants').send({ name: 'Second Login' }).expect(201);
    await api
      .admin()
      .post(`/admin/v1/merchants/${created.body.data.id as string}/approve`)
      .send({ consoleEmail: first.email, consolePassword: CONSOLE_PASSWORD })
      .expect(200);
    // Undoing it would drop a login silently: it refuses, naming the address, and changes nothing.
    await expect(migrate('down')).rejects.toThrow(`${first.email} has logins at several merchants`);
    const logins = await api.sql(`SELECT 1 FROM merchant_members WHERE email = $1`, [first.email]);
    expect(logins).toHaveLength(2);
  });
});
