import type { ApiKeyMode } from '@payhook/contracts';
import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** An API key as stored: only its SHA-256 and last four characters, never the key. */
@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'merchant_id', type: 'text' })
  merchantId!: string;

  @Column({ type: 'text' })
  mode!: ApiKeyMode;

  @Column({ name: 'key_hash', type: 'text' })
  keyHash!: string;

  @Column({ name: 'key_last4', type: 'text' })
  keyLast4!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  /** After a roll: the old key works until then, and not after. */
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;
}
