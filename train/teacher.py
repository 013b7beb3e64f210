"""The teacher both SB3 trainers share (``dugout train --teacher``, ``dugout train challenge
--teacher``; the batched trainer takes its checks and schedule): a manager whose choices
the network also learns, with a weight that falls linearly over the run. The teacher never
plays a move."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["TEACHERS", "check_teacher", "teacher_weight", "taught_ppo"]

#: the teachers: a manager of the ruleset's agent registry by name ("solver": That's
#: Baseball's exact optimal manager, or Bottom of the 9th's equilibrium manager)
TEACHERS = ("none", "heuristic", "solver")


def check_teacher(teacher: str, fraction: float, coef: float) -> None:
    """Refuse a teacher's settings that make no sense (both trainers' ``--teacher``)."""
    if teacher not in TEACHERS:
        raise ValueError(f"teacher must be one of {', '.join(TEACHERS)}, got {teacher!r}")
    if not (fraction > 0.0 and math.isfinite(fraction)):    # above 1 it never reaches 0
        raise ValueError(f"teacher_fraction must be a positive number, got {fraction!r}")
    if not (coef >= 0.0 and math.isfinite(coef)):
        raise ValueError(f"teacher_coef must be a non-negative number, got {coef!r}")


def teacher_weight(coef: float, fraction: float, progress: float) -> float:
    """The teacher term's weight ``progress`` (0..1) of the way through the run: ``coef``
    falling linearly to 0 at ``fraction`` of it, 0 after."""
    return coef * max(0.0, 1.0 - progress / fraction)


def taught_ppo():
    """MaskablePPO whose updates also learn from a teacher (``--teacher heuristic`` or ``solver``).

    While a rollout is collected, the teacher's choice at each of the learner's decisions
    is read from the envs (:meth:`SingleAgentEnv.teacher_action`, asked before each step
    for the observation the policy is about to act on). After PPO's own epochs, each
    update runs one more epoch of minibatches that lowers ``-weight * log pi(teacher's
    choice | observation, mask)``, with :func:`teacher_weight`. The teacher never plays:
    the games are the policy's, and once the weight is 0 the updates are PPO's alone.
    """
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    class Recorder(BaseCallback):
        """Wraps the run's callback: before each step's data is stored, keeps the teacher's
        choice for the observation acted on, then asks for the next one."""

        def __init__(self, model, inner):
            super().__init__()
            self.taught, self.inner = model, inner

        def on_rollout_start(self) -> None:
            self.inner.on_rollout_start()

        def update_locals(self, locals_) -> None:
            self.inner.update_locals(locals_)

        def on_step(self) -> bool:
            m = self.taught
            m.teacher_actions[m.rollout_buffer.pos] = m.teacher_next
            m.teacher_next = np.asarray(m.get_env().env_method("teacher_action"), dtype=np.int64)
            return self.inner.on_step()

        def on_rollout_end(self) -> None:
            self.inner.on_rollout_end()

        def _on_step(self) -> bool:                     # pragma: no cover - on_step is replaced
            return True

    class TaughtMaskablePPO(MaskablePPO):
        teacher_coef = 1.0
        teacher_fraction = 1.0
        teacher_total = 1

        def collect_rollouts(self, env, callback, rollout_buffer, n_rollout_steps, *args, **kwargs):
            self.teacher_actions = np.full((n_rollout_steps, env.num_envs), -1, dtype=np.int64)
            self.teacher_next = np.asarray(env.env_method("teacher_action"), dtype=np.int64)
            return super().collect_rollouts(env, Recorder(self, callback), rollout_buffer,
                                            n_rollout_steps, *args, **kwargs)

        def teacher_weight(self) -> float:
            return teacher_weight(self.teacher_coef, self.teacher_fraction,
                                  self.num_timesteps / self.teacher_total)

        def train(self) -> None:
            super().train()
            weight = self.teacher_weight()
            self.logger.record("train/teacher_weight", weight)
            if weight <= 0:
                return
            buf = self.rollout_buffer      # flattened by PPO's epochs: env-major, like this
            actions = self.teacher_actions.swapaxes(0, 1).reshape(-1)
            if (actions < 0).any():
                raise RuntimeError("a learner decision of the rollout has no teacher's choice")
            obs = torch.as_tensor(buf.observations.reshape(len(actions), -1), device=self.device)
            masks = torch.as_tensor(buf.action_masks.reshape(len(actions), -1), device=self.device)
            target = torch.as_tensor(actions, device=self.device)
            losses = []
            for idx in torch.randperm(len(actions)).split(self.batch_size):
                dist = self.policy.get_distribution(obs[idx], action_masks=masks[idx])
                loss = -weight * dist.log_prob(target[idx]).mean()
                self.policy.optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.policy.parameters(), self.max_grad_norm)
                self.policy.optimizer.step()
                losses.append(loss.item() / weight)
            self.logger.record("train/teacher_nll", float(np.mean(losses)))

    return TaughtMaskablePPO
