import { describe, expect, it } from 'vitest';
import { AppError, badRequest, conflict, unavailable } from '../../framework/errors.js';
import { maintenanceRefusal } from './allocator.js';
import { refusalOutcome } from './purchase-outcomes.js';

describe('why a purchase was refused', () => {
  it('names the refusal by the error the purchase service threw', () => {
    expect(refusalOutcome(new AppError(402, 'INSUFFICIENT_BALANCE', '余额不足'))).toBe(
      'insufficient_balance',
    );
    expect(refusalOutcome(conflict('GPU 资源不足', 'GPU_INSUFFICIENT'))).toBe('no_capacity');
    expect(refusalOutcome(conflict('节点端口已用尽', 'PORTS_EXHAUSTED'))).toBe('no_capacity');
    expect(refusalOutcome(badRequest('价格已变化，请刷新后重试', 'PRICE_MISMATCH'))).toBe('validation');
    expect(refusalOutcome(unavailable('节点离线', 'NODE_OFFLINE'))).toBe('node_unavailable');
    expect(refusalOutcome(conflict('节点未通过安全检查', 'NODE_UNSAFE'))).toBe('node_unavailable');
    expect(refusalOutcome(maintenanceRefusal())).toBe('node_unavailable');
    expect(refusalOutcome(conflict('20端口已被占用', 'PORT_OCCUPIED'))).toBe('refused');
    expect(refusalOutcome(new Error('boom'))).toBe('error');
  });
});
