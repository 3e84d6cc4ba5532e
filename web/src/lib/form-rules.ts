import type { RuleObject } from 'antd/es/form';

/** Turns a pure check (null when valid, else the message) into an antd form rule. */
export function ruleFrom<T>(check: (value: T) => string | null): RuleObject {
  return {
    validator: (_rule, value: T) => {
      const problem = check(value);
      return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
    },
  };
}
