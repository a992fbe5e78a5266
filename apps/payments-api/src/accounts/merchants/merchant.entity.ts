import type { MerchantStatus } from '@payhook/contracts';
import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'merchants' })
export class MerchantEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  status!: MerchantStatus;

  @Column({ name: 'time_zone', type: 'text' })
  timeZone!: string;

  /** The console login made at approval, the merchant's first owner (its members are in merchant_members). */
  @Column({ name: 'console_email', type: 'text', nullable: true })
  consoleEmail!: string | null;

  /** The merchant's fee in basis points of the gross amount; the operator's default at creation. */
  @Column({ name: 'fee_bps', type: 'integer' })
  feeBps!: number;

  /** Business days from a sales date to its payout date. */
  @Column({ name: 'settlement_delay_days', type: 'integer' })
  settlementDelayDays!: number;

  /** Must issue cash receipts unasked (의무발행업종): completions of ₩100,000 or more self-issue one. */
  @Column({ name: 'cash_receipt_required', type: 'boolean', default: false })
  cashReceiptRequired!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
