import { SafeHtml, html } from '../../../platform/html/html';
import { htmlPage } from '../../../platform/html/html-page';
import { roleAllows, type MemberRole } from '../../../accounts/team';
import type { ConsoleMode, ConsoleSession } from './console-session';
import { endpointsInTroubleOfThisPage } from './console-webhook-banner';
import { formatInZone } from '../../../platform/time/zoned-time';
import type { Locale } from '../../../platform/i18n/locale';
import { consoleSharedT, type ConsoleSharedKey, type ConsoleSharedT } from './messages';

export type ConsoleSection = 'payments' | 'settlements' | 'developers' | 'team' | 'audit' | 'settings' | 'security';

const STYLE = new SafeHtml(`
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans KR",sans-serif;background:#f3f4f6;color:#111827}
header{background:#111827;color:#f9fafb;padding:.625rem 1rem;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.25rem}
header .brand{font-weight:700}
header .merchant{color:#d1d5db}
header nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem}
header nav a{color:#e5e7eb;text-decoration:none;padding:.25rem 0;overflow-wrap:anywhere}
header nav a[aria-current=page]{color:#fff;text-decoration:underline;text-underline-offset:.3em}
header form{margin:0 0 0 auto}
header button{background:transparent;border:1px solid #6b7280;color:#f9fafb;padding:.25rem .75rem}
main{max-width:72rem;margin:0 auto;padding:1rem}
p{overflow-wrap:break-word}
h1{font-size:1.375rem;margin:0 0 .75rem}
h2{font-size:1.125rem;margin:0 0 .75rem}
h3{font-size:1rem;margin:1rem 0 .5rem}
h4{font-size:.9375rem;margin:.75rem 0 .375rem}
.card{background:#fff;border-radius:10px;padding:1rem;margin:0 0 1rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.login p{overflow-wrap:anywhere}
.zone{color:#4b5563;font-size:.875rem;margin:-.5rem 0 .75rem}
.modes{display:flex;gap:.5rem;margin:0 0 1rem}
.modes a{padding:.25rem .875rem;border-radius:999px;border:1px solid #9ca3af;color:#111827;text-decoration:none;font-weight:600}
.modes a[aria-current=page]{background:#111827;border-color:#111827;color:#fff}
.notice,.error{padding:.625rem .875rem;border-radius:8px;margin:0 0 1rem}
.notice{background:#dbeafe;color:#1e3a8a}
.error{background:#fee2e2;color:#991b1b}
.scroll{overflow-x:auto}
table{width:100%;border-collapse:collapse;font-size:.9375rem}
th,td{text-align:left;padding:.5rem;border-bottom:1px solid #e5e7eb;vertical-align:top}
th{color:#4b5563;font-weight:600;white-space:nowrap}
.num{text-align:right;white-space:nowrap}
.nowrap{white-space:nowrap}
.badge{display:inline-block;padding:0 .5rem;border-radius:999px;font-size:.8125rem;font-weight:600;background:#e5e7eb;color:#374151;white-space:nowrap}
.badge.completed,.badge.succeeded,.badge.passed,.badge.live,.badge.matched,.badge.redeemed,.badge.enabled,.badge.issued,.badge.confirmed{background:#d1fae5;color:#065f46}
.badge.failed,.badge.disabled,.badge.rejected{background:#fee2e2;color:#991b1b}
.badge.failing,.badge.expiring{background:#fef3c7;color:#92400e}
.qr{max-width:14rem;background:#fff}
.warning{padding:.625rem .875rem;border-radius:8px;margin:0 0 1rem;background:#fef3c7;color:#78350f}
.test-mode{padding:.5rem .875rem;border-radius:8px;margin:0 0 1rem;background:#ede9fe;color:#4c1d95;border:1px solid #c4b5fd}
.webhook-banner p{margin:0}
.webhook-banner ul{margin:.25rem 0 0;padding-left:1.25rem}
.webhook-banner a{color:#78350f;font-weight:600}
.badge.pending,.badge.running,.badge.integrating,.badge.review,.badge.held,.badge.open,.badge.awaiting_shipment,.badge.shipped{background:#fef3c7;color:#92400e}
form{margin:0}
.filters{display:grid;grid-template-columns:repeat(auto-fit,minmax(9.5rem,1fr));gap:.75rem;align-items:end}
.inline{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end}
.inline label{flex:1 1 16rem}
label{display:block;font-size:.875rem;color:#374151}
fieldset{flex:1 1 100%;margin:0;padding:.375rem .75rem .5rem;border:1px solid #d1d5db;border-radius:6px}
legend{padding:0 .25rem;font-size:.875rem;color:#374151}
label.check{display:inline-flex;align-items:center;gap:.375rem;margin:.25rem 1rem .25rem 0}
label.check input{width:auto;margin:0}
input,select{display:block;width:100%;margin-top:.125rem;padding:.5rem;border:1px solid #9ca3af;border-radius:6px;font:inherit;background:#fff;color:#111827}
button,.button{display:inline-block;padding:.5rem 1rem;border:0;border-radius:6px;background:#1d4ed8;color:#fff;font:inherit;font-weight:600;cursor:pointer;text-decoration:none;text-align:center}
.secondary{background:#e5e7eb;color:#111827}
.danger{background:#b91c1c;color:#fff}
button:focus-visible,a:focus-visible,input:focus-visible,select:focus-visible,summary:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:.75rem}
.field{margin:0 0 .75rem}
.hint{margin:.125rem 0 0;font-size:.8125rem;color:#4b5563}
.field-error{margin:.125rem 0 0;font-size:.875rem;font-weight:600;color:#991b1b}
input[aria-invalid=true]{border:2px solid #b91c1c}
ul.refunds,ul.receipts{list-style:none;margin:0;padding:0}
.shipment-form{border-top:1px solid #e5e7eb;margin-top:.75rem}
ul.refunds .event:first-child,ul.receipts .event:first-child{border-top:0;padding-top:0;margin-top:0}
ul.choices{list-style:none;margin:0 0 1rem;padding:0}
ul.choices li{margin:.5rem 0}
ul.choices button{width:100%}
.refund-form{border-top:1px solid #e5e7eb;margin-top:.75rem}
.refund-form fieldset{margin:0 0 .75rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
dt{color:#4b5563}
dd{margin:0;overflow-wrap:anywhere}
dl.metadata{grid-template-columns:minmax(0,max-content) minmax(0,1fr)}
dl.metadata dt{overflow-wrap:anywhere}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.8125rem;overflow-wrap:anywhere}
pre{white-space:pre-wrap;margin:0;max-height:8rem;overflow:auto;background:#f9fafb;padding:.25rem .5rem;border-radius:4px}
details summary{cursor:pointer;color:#1d4ed8}
ol.history{margin:0;padding-left:1.25rem}
.muted{color:#6b7280}
.pager{display:flex;flex-wrap:wrap;gap:1rem;margin-top:1rem}
.event{border-top:1px solid #e5e7eb;padding-top:.75rem;margin-top:.75rem}
.columns{display:grid;gap:0 1rem}
@media (min-width:64rem){.columns{grid-template-columns:minmax(0,2fr) minmax(0,3fr);align-items:start}}
.login{max-width:24rem;margin:3rem auto}
.login label{margin-bottom:.75rem}
@media (max-width:40rem){dl{grid-template-columns:1fr}dt{font-weight:600;margin-top:.375rem}main{padding:.75rem}
table.stack thead{display:none}
table.stack tr{display:block;padding:.5rem 0;border-bottom:1px solid #e5e7eb}
table.stack td{display:flex;flex-wrap:wrap;justify-content:space-between;gap:0 1rem;border:0;padding:.125rem 0;text-align:right;overflow-wrap:anywhere}
table.stack td::before{content:attr(data-label);color:#4b5563;text-align:left;flex:none}}
`);

interface PageFrame {
  title: string;
  nonce: string;
  section?: ConsoleSection;
  /** The mode a page shows the data of; test mode says so above everything else. */
  mode?: ConsoleMode;
}

/** A signed-in page speaks the session's language; the login forms and error pages the browser's. */
export type PageOptions = PageFrame & ({ session: ConsoleSession } | { session?: undefined; locale: Locale });

export function consolePage(options: PageOptions, body: SafeHtml): string {
  const { session, section } = options;
  const locale = session ? session.locale : options.locale;
  const t = consoleSharedT(locale);
  const link = (target: ConsoleSection, text: string) =>
    html`<a href="/console/${target}" ${section === target ? html`aria-current="page"` : null}>${text}</a>`;
  const header = session
    ? html`<header>
        <span class="brand">${t('layout.brand')}</span>
        <span class="merchant">${session.merchant.name}</span>
        <nav aria-label="${t('layout.nav')}">
          ${link('payments', t('layout.nav.payments'))} ${link('settlements', t('layout.nav.settlements'))}
          ${link('developers', t('layout.nav.developers'))} ${link('team', t('layout.nav.team'))}
          ${link('audit', t('layout.nav.audit'))} ${link('settings', t('layout.nav.settings'))}
          ${link('security', t('layout.nav.security', { email: session.member.email }))}
        </nav>
        <form method="post" action="/console/logout">
          <input type="hidden" name="csrf" value="${session.csrfToken}" />
          <button type="submit">${t('layout.logout')}</button>
        </form>
      </header>`
    : html`<header><span class="brand">${t('layout.brand')}</span></header>`;
  const banner = session ? webhookBanner(session, t) : null;
  const testMode =
    options.mode === 'test'
      ? html`<p class="test-mode" id="test-mode">
          <strong>${t('layout.testMode.title')}</strong> ${t('layout.testMode.text')}
        </p>`
      : null;
  return htmlPage({
    title: t(options.mode === 'test' ? 'layout.titleTest' : 'layout.title', { title: options.title }),
    lang: locale,
    nonce: options.nonce,
    style: STYLE,
    header,
    body: html`${testMode}${banner}${body}`,
  });
}

/**
 * While an endpoint of the merchant is disabled or has failed for WEBHOOK_NOTICE_AFTER, every page
 * says so, until it is enabled or healthy again.
 */
function webhookBanner(session: ConsoleSession, t: ConsoleSharedT): SafeHtml | null {
  const endpoints = endpointsInTroubleOfThisPage();
  if (endpoints.length === 0) return null;
  const zone = session.merchant.timeZone;
  const items = endpoints.map((endpoint) => {
    const mode = endpoint.livemode ? 'live' : 'test';
    const url = html`<code>${endpoint.url}</code>`;
    const state =
      endpoint.status === 'disabled'
        ? t.html(endpoint.livemode ? 'banner.live' : 'banner.test', { url })
        : t.html(endpoint.livemode ? 'banner.liveFailing' : 'banner.testFailing', {
            url,
            time: timeIn(endpoint.failingSince, zone),
          });
    return html`<li>
      ${state}
      <a href="/console/developers?mode=${mode}">${t('banner.open', { mode })}</a>
    </li>`;
  });
  return html`<div class="warning webhook-banner" id="webhook-banner">
    <p><strong>${t('banner.title', { count: endpoints.length })}</strong></p>
    <ul>
      ${items}
    </ul>
  </div>`;
}

/** Every time in the console: in the merchant's zone, with the zone named, and the instant for machines. */
export function timeIn(date: Date | string | null, timeZone: string): SafeHtml {
  if (date === null) return html`<span class="muted">—</span>`;
  const instant = typeof date === 'string' ? new Date(date) : date;
  return html`<time datetime="${instant.toISOString()}" class="nowrap">${formatInZone(instant, timeZone)}</time>`;
}

/** The test/live switch; `hrefFor` keeps whatever else the page's address holds. */
export function modeSwitch(locale: Locale, current: ConsoleMode, hrefFor: (mode: ConsoleMode) => string): SafeHtml {
  const t = consoleSharedT(locale);
  const item = (mode: ConsoleMode, text: string) =>
    html`<a href="${hrefFor(mode)}" ${mode === current ? html`aria-current="page"` : null}>${text}</a>`;
  return html`<nav class="modes" aria-label="${t('layout.modes')}">
    ${item('test', t('layout.mode.test'))} ${item('live', t('layout.mode.live'))}
  </nav>`;
}

/** The states, roles and outcomes the console shows, each a badge; the class is the state's own name. */
export type BadgeState = {
  [Key in ConsoleSharedKey]: Key extends `status.${infer State}` ? State : never;
}[ConsoleSharedKey];

export function badge(locale: Locale, state: BadgeState): SafeHtml {
  return html`<span class="badge ${state}">${consoleSharedT(locale)(`status.${state}`)}</span>`;
}

/**
 * Whether the signed-in member's role may use a control that needs `needed`: a page shows only the
 * forms its reader can submit (the server checks the role on every form all the same).
 */
export function canUse(session: ConsoleSession, needed: MemberRole): boolean {
  return roleAllows(session.member.role, needed);
}

export function csrfField(session: ConsoleSession): SafeHtml {
  return html`<input type="hidden" name="csrf" value="${session.csrfToken}" />`;
}

export function messages(notice: string | null, error: string | null): SafeHtml {
  return html`${notice ? html`<p class="notice" role="status">${notice}</p>` : null}
  ${error ? html`<p class="error" role="alert">${error}</p>` : null}`;
}

/** An error page; no session details, so it also serves requests without one. */
export function renderConsoleError(nonce: string, locale: Locale, title: string, message: string): string {
  return consolePage(
    { title, nonce, locale },
    html`<div class="card">
      <h1>${title}</h1>
      <p>${message}</p>
      <p><a href="/console/payments">${consoleSharedT(locale)('error.back')}</a></p>
    </div>`,
  );
}
