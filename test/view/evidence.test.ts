import { describe, expect, it } from 'vitest';
import { evidenceParts } from '../../web/view/src/evidence.js';

describe('constraint evidence with call links', () => {
  it('cuts a refusal’s evidence at the calls it names', () => {
    // the evidence of a refusal constraint as `cove generate --n 2 --seed 1` writes it
    const text =
      'order #W5256770 unchanged; user identified by call_2 find_user_id_by_email, #W5256770 looked up by call_6 get_order_details, no write on it, answered at message 18';
    expect(evidenceParts(text, ['call_1', 'call_2', 'call_6', 'call_7'])).toEqual([
      { text: 'order #W5256770 unchanged; user identified by ' },
      { call: 'call_2' },
      { text: ' find_user_id_by_email, #W5256770 looked up by ' },
      { call: 'call_6' },
      { text: ' get_order_details, no write on it, answered at message 18' },
    ]);
  });

  it('matches whole ids only, and leaves ids of no call as text', () => {
    expect(evidenceParts('by call_12 and call_1.', ['call_1', 'call_12'])).toEqual([
      { text: 'by ' },
      { call: 'call_12' },
      { text: ' and ' },
      { call: 'call_1' },
      { text: '.' },
    ]);
    expect(evidenceParts('by call_3', ['call_1'])).toEqual([{ text: 'by call_3' }]);
    expect(evidenceParts('no calls', [])).toEqual([{ text: 'no calls' }]);
  });
});
