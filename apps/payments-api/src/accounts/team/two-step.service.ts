import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { AuditLog, OPERATOR_ACTOR, type AuditActor } from '../../core/audit';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { MembersRepository } from './members.repository';
import { RecoveryCodeHashes } from './recovery-code-hashes';
import { TeamException } from './team.exception';
import { TwoStepRepository } from './two-step.repository';

/** RFC 6238: 30-second steps, 6 digits; a code of the step before or after still counts (clock drift). */
const PERIOD_SECONDS = 30;
const DRIFT_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;
const sealContext = (memberId: string) => `merchant_members.totp_secret:${memberId}`;
/** 10 characters of base32 (50 bits) in two groups: typed by hand, never guessed. */
function newRecoveryCode(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(10);
  const chars = [...bytes].map((byte) => alphabet[byte % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

export interface TwoStepSetup {
  /** Base32, for typing into an authenticator by hand. */
  secret: string;
  /** The otpauth:// address as an inline SVG QR code (the CSP allows no other host). */
  qrSvg: string;
}

/** Two-step login (TOTP) of console members: setup, codes at login, recovery codes, turning it off. */
@Injectable()
export class TwoStepService {
  constructor(
    private readonly store: TwoStepRepository,
    private readonly audit: AuditLog,
    private readonly recoveryCodes: RecoveryCodeHashes,
    private readonly members: MembersRepository,
    @Inject(PaymentsApiEnv) private readonly env: PaymentsApiEnv,
  ) {}

  /** A new secret, pending until confirmed with a code from it; shown once. */
  async startSetup(member: { id: string; email: string }): Promise<TwoStepSetup> {
    const secret = generateSecret();
    await this.store.setPending(member.id, this.env.secretsKeyring.seal(secret, sealContext(member.id)));
    const uri = generateURI({ issuer: 'payhook', label: member.email, secret });
    const qrSvg = await QRCode.toString(uri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
    return { secret, qrSvg };
  }

  /** Turns two-step login on when `code` is right for the pending secret; the recovery codes, shown once, or null. */
  async confirmSetup(
    member: { id: string; merchantId: string },
    code: string,
    by: AuditActor,
  ): Promise<string[] | null> {
    const { pending, lastStep } = await this.store.secrets(member.id);
    if (!pending) return null;
    const step = await this.matchingStep(this.env.secretsKeyring.open(pending, sealContext(member.id)), code, lastStep);
    if (step === null) return null;
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const entry = {
      ...by,
      merchantId: member.merchantId,
      action: 'member.two_step_enabled' as const,
      target: member.id,
    };
    const taken = await this.audit.audited(
      (done: boolean) => (done ? entry : null),
      async (sql) => {
        if (!(await this.store.takeStep(sql, member.id, step))) return false;
        await this.store.activate(
          sql,
          member.id,
          codes.map((c) => this.recoveryCodes.current(member.id, c)),
        );
        return true;
      },
    );
    return taken ? codes : null;
  }

  /** The second step of a login: a TOTP code not used before, or an unused recovery code. */
  async verifyLogin(memberId: string, code: string): Promise<boolean> {
    const { active, lastStep } = await this.store.secrets(memberId);
    if (!active) return false;
    const digits = code.replace(/\s/g, '');
    if (/^\d{6}$/.test(digits)) {
      const step = await this.matchingStep(
        this.env.secretsKeyring.open(active, sealContext(memberId)),
        digits,
        lastStep,
      );
      return step !== null && (await this.store.takeStep(null, memberId, step));
    }
    return this.store.useRecoveryCode(memberId, this.recoveryCodes.candidates(memberId, code));
  }

  /**
   * The operator's way back for a member who lost the phone and the recovery codes: two-step login
   * off, the member's codes gone, audited as the operator's. The member signs in with the password
   * and can turn it on again. resource_not_found when the merchant has no member with this address.
   */
  async resetByOperator(merchantId: string, email: string, clientAddress: string | null): Promise<void> {
    const login = await this.members.findByAddress(merchantId, email.trim().toLowerCase());
    if (!login) {
      throw new TeamException('resource_not_found', `No member ${email} of merchant ${merchantId}.`);
    }
    await this.audit.audited(
      { actor: OPERATOR_ACTOR, clientAddress, merchantId, action: 'member.two_step_reset', target: login.id },
      (sql) => this.store.deactivate(sql, login.id),
    );
  }

  async disable(member: { id: string; merchantId: string }, by: AuditActor): Promise<void> {
    await this.audit.audited(
      { ...by, merchantId: member.merchantId, action: 'member.two_step_disabled', target: member.id },
      (sql) => this.store.deactivate(sql, member.id),
    );
  }

  unusedRecoveryCodes(memberId: string): Promise<number> {
    return this.store.unusedRecoveryCodes(memberId);
  }

  /** The time step `code` belongs to, if it is right and later than the last one taken. */
  private async matchingStep(secret: string, code: string, lastStep: number | null): Promise<number | null> {
    if (!/^\d{6}$/.test(code.trim())) return null;
    const result = await verify({
      secret,
      token: code.trim(),
      period: PERIOD_SECONDS,
      epochTolerance: DRIFT_SECONDS,
      ...(lastStep === null ? {} : { afterTimeStep: lastStep }),
    }).catch(() => ({ valid: false as const })); // a last step past the window (a clock set back): no code counts
    // TOTP's result carries the epoch it matched at; its time step is that over the period.
    return result.valid && 'epoch' in result ? Math.floor(result.epoch / PERIOD_SECONDS) : null;
  }
}
