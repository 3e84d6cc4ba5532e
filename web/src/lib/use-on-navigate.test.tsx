import { act, render } from '@testing-library/react';
import { useState } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { useOnNavigate } from './use-on-navigate';

function Probe({ onNavigate }: { onNavigate: () => void }) {
  const [count, setCount] = useState(0);
  useOnNavigate(onNavigate);
  return (
    <button type="button" onClick={() => setCount(count + 1)}>
      {count}
    </button>
  );
}

describe('useOnNavigate', () => {
  it('is called on each change of path or query, not on mount nor on a re-render', async () => {
    const onNavigate = vi.fn();
    const router = createMemoryRouter([{ path: '*', element: <Probe onNavigate={onNavigate} /> }], {
      initialEntries: ['/a'],
    });
    const view = render(<RouterProvider router={router} />);
    expect(onNavigate).not.toHaveBeenCalled();

    act(() => view.getByRole('button').click());
    expect(view.getByRole('button').textContent).toBe('1');
    expect(onNavigate).not.toHaveBeenCalled();

    await act(() => router.navigate('/b'));
    expect(onNavigate).toHaveBeenCalledTimes(1);
    await act(() => router.navigate('/b?page=2'));
    expect(onNavigate).toHaveBeenCalledTimes(2);
    await act(() => router.navigate('/b?page=2'));
    expect(onNavigate).toHaveBeenCalledTimes(2);
  });
});
