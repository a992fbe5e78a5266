/** The caller's slice of the data: every merchant query is scoped by it. An AuthContext is one. */
export interface MerchantScope {
  merchantId: string;
  livemode: boolean;
}
