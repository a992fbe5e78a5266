import { Get, Query, Res, UseGuards } from '@nestjs/common';
import { ConsoleController } from '../shared/console-controller.decorator';
import type { Response } from 'express';
import { AuditLog, isAuditAction, type AuditFilter, type AuditRecord } from '../../../core/audit';
import { MerchantsService } from '../../../accounts/merchants';
import { TeamService } from '../../../accounts/team';
import { isIdOf } from '@payhook/contracts';
import { sendPage } from '../../../platform/html/html-response';
import { renderAudit } from './console-audit.view';
import type { ConsoleSession } from '../shared/console-session';
import { ConsoleSessionGuard } from '../shared/console-session.guard';
import { CurrentConsoleSession } from '../shared/current-console-session.decorator';

const PAGE_SIZE = 50;

/** `<ISO time>~<aud_ id>`: where the next page starts. Anything else is no cursor (the newest page). */
function cursorOf(value: unknown): AuditFilter['before'] {
  if (typeof value !== 'string' || value.length > 80) return undefined;
  const [time = '', id = ''] = value.split('~');
  // Exactly as the page wrote it (toISOString): no year Postgres cannot hold, nothing parsed loosely.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(time) || !/^aud_[0-9A-Za-z]{24}$/.test(id)) {
    return undefined;
  }
  const createdAt = new Date(time);
  return Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== time ? undefined : { createdAt, id };
}

@ConsoleController('console/audit')
@UseGuards(ConsoleSessionGuard)
export class ConsoleAuditController {
  constructor(
    private readonly audit: AuditLog,
    private readonly merchants: MerchantsService,
    private readonly team: TeamService,
  ) {}

  @Get()
  async show(
    @CurrentConsoleSession() session: ConsoleSession,
    @Query('actor') actorParam: unknown,
    @Query('action') actionParam: unknown,
    @Query('before') before: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const actor = typeof actorParam === 'string' ? actorParam.trim().slice(0, 254) : '';
    const action = isAuditAction(actionParam) ? actionParam : undefined;
    const cursor = cursorOf(before);
    const entries = await this.audit.list(
      session.merchant.id,
      { actor: actor || undefined, action, before: cursor },
      PAGE_SIZE + 1,
    );
    const page = entries.slice(0, PAGE_SIZE);
    const query = (extra: Record<string, string>) => {
      const params = new URLSearchParams({ ...(actor ? { actor } : {}), ...(action ? { action } : {}), ...extra });
      const text = params.toString();
      return `/console/audit${text ? `?${text}` : ''}`;
    };
    const last = page.at(-1);
    const olderHref =
      entries.length > PAGE_SIZE && last ? query({ before: `${last.createdAt.toISOString()}~${last.id}` }) : null;
    const model = {
      session,
      entries: page,
      names: await this.namesOf(session.merchant.id, page),
      actor,
      action: action ?? '',
      olderHref,
      newestHref: cursor ? query({}) : null,
    };
    sendPage(response, 200, (nonce) => renderAudit(nonce, model));
  }

  /**
   * What the pages call the keys and members an entry names by id: a key's mask as the developers
   * page shows it, a member's e-mail address.
   */
  private async namesOf(merchantId: string, entries: AuditRecord[]): Promise<Map<string, string>> {
    const ids = [...new Set(entries.flatMap((entry) => [entry.actor, entry.target ?? '']))];
    const [keys, members] = await Promise.all([
      this.merchants.maskedApiKeys(
        merchantId,
        ids.filter((id) => isIdOf('apiKey', id)),
      ),
      this.team.memberEmails(
        merchantId,
        ids.filter((id) => isIdOf('member', id)),
      ),
    ]);
    return new Map([...keys, ...members]);
  }
}
