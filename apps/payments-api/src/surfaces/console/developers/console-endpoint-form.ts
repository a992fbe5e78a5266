import { EVENT_TYPES, type EventType } from '@payhook/contracts';
import type { ClassConstructor } from 'class-transformer';
import {
  CreateWebhookEndpointRequestDto,
  ENDPOINT_DESCRIPTION_MAX_CHARS,
  PutWebhookEndpointRequestDto,
  UpdateWebhookEndpointRequestDto,
} from '../../../webhooks/endpoints';
import { dtoViolations } from '../../../platform/http/dto-violations';
import { MAX_URL_LENGTH } from '../../../platform/http/validators';
import type { DevelopersMessage } from './messages';

/** What the console's add and edit forms of an endpoint hold. */
export interface EndpointForm {
  url: string;
  description: string;
  events: string[];
}

/** An endpoint's fields as the API takes them (a blank description: none). */
export interface EndpointFields {
  url: string;
  enabledEvents: EventType[] | undefined;
  description: string | null;
}

type Checked<T> = { kind: 'ok'; fields: T } | { kind: 'refused'; refusal: DevelopersMessage };

/** The page's one message for a refused form: its first broken field's, in the order the form shows them. */
const MESSAGES = new Map<string, DevelopersMessage>([
  ['url', { key: 'refused.url', values: { max: MAX_URL_LENGTH } }],
  ['enabledEvents', { key: 'refused.events', values: { types: EVENT_TYPES.join(', ') } }],
  ['description', { key: 'refused.description', values: { max: ENDPOINT_DESCRIPTION_MAX_CHARS } }],
]);

/**
 * `fields` checked by the API's DTO for the same change, so the form keeps the API's rules. The event
 * types are typed as the DTO's before the check, which refuses any other.
 */
function checked<T extends object>(dto: ClassConstructor<object>, fields: T): Checked<T> {
  const broken = dtoViolations(dto, fields);
  const refused = [...MESSAGES].find(([field]) => broken.has(field));
  return refused ? { kind: 'refused', refusal: refused[1] } : { kind: 'ok', fields };
}

/** PUT /v1/webhook-endpoint's URL and event types; `events` left out keeps the endpoint's own. */
export function checkWebhookEndpoint(
  url: string,
  events: string[] | undefined,
): Checked<{ url: string; enabledEvents: EventType[] | undefined }> {
  return checked(PutWebhookEndpointRequestDto, { url, enabledEvents: events as EventType[] | undefined });
}

/** The add form as POST /v1/webhook-endpoints takes it, or the edit form as PATCH …/{id} does. */
export function checkEndpointFields(form: EndpointForm, change: 'create' | 'update'): Checked<EndpointFields> {
  const description = form.description.trim();
  const fields = { url: form.url, enabledEvents: form.events as EventType[], description: description || null };
  return checked(change === 'create' ? CreateWebhookEndpointRequestDto : UpdateWebhookEndpointRequestDto, fields);
}
