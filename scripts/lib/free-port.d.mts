export function freeLoopbackPort(): Promise<number>;
