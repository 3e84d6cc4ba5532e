// The profile itself is the control plane's `Profile` (@gpucloud/control-plane/api).

/** Countdowns of the code buttons (spec §9): e-mail 600 s, phone 60 s. */
export const EMAIL_CODE_COUNTDOWN_S = 600;
export const PHONE_CODE_COUNTDOWN_S = 60;
export const SSH_KEY_MAX_LENGTH = 2048;
