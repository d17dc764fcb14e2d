-- Records an Idempotency-Key's outcome for the request that holds its claim, inside the transaction of the
-- write the key protects (lib/idempotency/idempotency.ts). A first request that outlived the stale limit may
-- have had its claim taken over by a retry, which moved locked_at on: this request then matches no row, and
-- the error rolls its whole transaction back, so of the two only the retry takes effect. It raises rather
-- than reporting a count because the application create's batched transaction sends this statement with its
-- COMMIT and reads no result.
CREATE FUNCTION complete_idempotency_key(record_id TEXT, claimed_at TIMESTAMPTZ, outcome_status INTEGER, outcome_body JSON)
RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
  UPDATE idempotency_keys SET status = 'completed', response_status = outcome_status, response_body = outcome_body
    WHERE id = record_id AND status = 'in_progress' AND locked_at = claimed_at;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'The claim on Idempotency-Key record % was taken over', record_id USING ERRCODE = 'IK001';
  END IF;
END
$$;
