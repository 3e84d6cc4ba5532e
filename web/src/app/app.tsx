import { useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { setLoginNavigator } from '../lib/api-client';
import { AppProvider } from './provider';
import { createAppRouter } from './router';

export function App() {
  const [router] = useState(() => {
    const created = createAppRouter();
    // A 401 anywhere ends the session; move to /login without reloading the bundle.
    setLoginNavigator(() => {
      void created.navigate('/login');
    });
    return created;
  });
  return (
    <AppProvider>
      <RouterProvider router={router} future={{ v7_startTransition: true }} />
    </AppProvider>
  );
}
