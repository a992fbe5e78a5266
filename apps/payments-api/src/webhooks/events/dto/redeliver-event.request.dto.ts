import { OptionalEndpointId } from './endpoint-id.property';

/** POST /v1/events/{id}/redeliver: an optional body naming the one endpoint to send to. */
export class RedeliverEventRequestDto {
  @OptionalEndpointId('only this endpoint; without it, every endpoint that takes the type (or the oldest one)')
  endpointId?: string;
}
