import type { PaymentStatus } from '@payhook/contracts';

/** A payments row as the service sees it. */
export interface PaymentRecord {
  id: string;
  merchantId: string;
  livemode: boolean;
  orderId: string;
  customerId: string;
  amount: number;
  currency: 'KRW';
  status: PaymentStatus;
  returnUrl: string;
  paySuffix: string;
  expiresAt: Date;
  createdAt: Date;
  completedAt: Date | null;
}

/** The caller's slice of the data: every query is scoped by it. */
export interface MerchantScope {
  merchantId: string;
  livemode: boolean;
}
