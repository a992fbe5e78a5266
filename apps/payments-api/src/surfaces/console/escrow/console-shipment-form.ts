import { SHIPMENT_FIELD_MAX_CHARS } from '@payhook/contracts';
import type { PaymentRecord } from '../../../money/payments';
import { ShipmentRequestDto } from '../../../money/escrow';
import { formField } from '../../../platform/html/cookies';
import { dtoViolations } from '../../../platform/http/dto-violations';
import type { ConsoleEscrowT } from './messages';

/** What the shipment form holds, as typed. */
export interface ShipmentFormValues {
  carrier: string;
  trackingNumber: string;
}

export type ShipmentField = keyof ShipmentFormValues;
export type ShipmentFormErrors = Partial<Record<ShipmentField, string>>;

/** The shipment form as the payment page shows it: as it starts, as typed, or as typed with what was wrong. */
export interface ShipmentFormState {
  values: ShipmentFormValues;
  errors: ShipmentFormErrors;
}

export type ParsedShipmentForm =
  { kind: 'valid'; shipment: ShipmentFormValues } | { kind: 'invalid'; errors: ShipmentFormErrors };

export const SHIPMENT_FIELDS: readonly ShipmentField[] = ['carrier', 'trackingNumber'];

/** The form's fields as posted, trimmed: a space around a pasted tracking number is not part of it. */
export function shipmentFormValues(body: unknown): ShipmentFormValues {
  const field = (name: ShipmentField) => (formField(body, name) ?? '').trim();
  return { carrier: field('carrier'), trackingNumber: field('trackingNumber') };
}

/** Empty for a first shipment; a correction starts from the shipment as registered. */
export function initialShipmentForm(escrow: PaymentRecord['escrow']): ShipmentFormState {
  return {
    values: { carrier: escrow?.carrier ?? '', trackingNumber: escrow?.trackingNumber ?? '' },
    errors: {},
  };
}

/**
 * The API's rules (ShipmentRequestDto: 1 to 64 printable characters each), in the form's words
 * (`t`'s language): missing, too long, or a character that is not printable.
 */
export function parseShipmentForm(values: ShipmentFormValues, t: ConsoleEscrowT): ParsedShipmentForm {
  const broken = dtoViolations(ShipmentRequestDto, values);
  const errors: ShipmentFormErrors = {};
  for (const field of SHIPMENT_FIELDS) {
    const value = values[field];
    if (value === '') errors[field] = t('error.missing', { field });
    else if ([...value].length > SHIPMENT_FIELD_MAX_CHARS) {
      errors[field] = t('error.tooLong', { field, max: SHIPMENT_FIELD_MAX_CHARS });
    } else if (broken.has(field)) errors[field] = t('error.notPrintable', { field });
  }
  return Object.keys(errors).length > 0 ? { kind: 'invalid', errors } : { kind: 'valid', shipment: values };
}
