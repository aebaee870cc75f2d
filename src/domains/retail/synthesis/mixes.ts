import type { TaskMix } from '../../../tasks/synthesis.js';

/**
 * Retail's preset task mixes (`--mix`). `tau2` is close to τ²-bench's 114 Retail tasks (τ²'s
 * `data/tau2/domains/retail/tasks.json`): their write actions per task are 0 (10 tasks), 1 (60), 2 (23), 3 (15),
 * 4 (5) and 5 (1), so a task here has k = 1 with weight 70 (the write-less tasks count as one refusal or
 * information constraint), then 23, 15, 5, 1 for k = 2…5. The write kinds are weighted by how often τ²'s tasks use
 * each write tool (returns 41, item changes 39, exchanges 35, cancellations 25, order address 24, payment 1),
 * refusals by the 10 tasks without a write. The user-address and information weights are lower than τ²'s counts
 * (11 and 36 tasks) because a slot whose drawn kind finds no entity falls back to them: with 0.5 and 25, 300 tasks
 * on the default sandbox have 58 % k = 1, 22 % k = 2, 14 % k = 3 (τ²: 61 %, 20 %, 13 %), returns, exchanges and
 * item changes 56 % of the writes (τ²: 65 %) and an information request in a third of the tasks (τ²: 32 %).
 * The draws `second_item_change` and `other_users_order` are left out: none of τ²'s tasks refuses a second item
 * change or a request about another user's order. Replacements described as the cheapest variant or as the same
 * as in another order (which τ²'s tasks do ask for) come with the item changes and exchanges, as by default.
 */
export const RETAIL_MIXES: Readonly<Record<string, TaskMix>> = {
  tau2: {
    description: 'close to τ²-bench Retail: mostly 1–2 constraints, returns, exchanges and item changes most',
    kWeights: [70, 23, 15, 5, 1],
    kindWeights: {
      cancel_pending_order: 25,
      modify_pending_order_address: 24,
      modify_pending_order_payment: 1,
      modify_pending_order_items: 39,
      modify_user_address: 0.5,
      return_delivered_order_items: 41,
      exchange_delivered_order_items: 35,
      information: 25,
      refusal: 10,
    },
  },
};
