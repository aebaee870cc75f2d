/** τ²'s `RewardType` values (`data_model/tasks.py`): what a task's reward is computed from. */
export const REWARD_BASIS = ['DB', 'ENV_ASSERTION', 'NL_ASSERTION', 'ACTION', 'COMMUNICATE'] as const;
