// The registry HTTP API calls the control plane makes itself (deleting a saved image), with the
// authentication a registry asks for: a token the caller already has (the embedded registry), or
// the challenge's way with a robot account: Basic, or Bearer from the realm it names (Harbor,
// cloud registries).

export interface RegistryCredentials {
  /** A token to send as it is. */
  bearer?: string | undefined;
  /** A robot account, for whichever challenge the registry answers. */
  basic?: { username: string; password: string } | undefined;
}

const TIMEOUT_MS = 30_000;

/** The parameters of a `WWW-Authenticate: Bearer realm="…",service="…"` challenge. */
export function parseChallenge(header: string | null): { scheme: string; params: Record<string, string> } {
  const match = /^\s*(\w+)\s*(.*)$/s.exec(header ?? '');
  const params: Record<string, string> = {};
  for (const m of (match?.[2] ?? '').matchAll(/(\w+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g)) {
    params[(m[1] as string).toLowerCase()] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] ?? '');
  }
  return { scheme: (match?.[1] ?? '').toLowerCase(), params };
}

const basicHeader = (basic: { username: string; password: string }) =>
  `Basic ${Buffer.from(`${basic.username}:${basic.password}`).toString('base64')}`;

/** A token from the challenge's realm for `scope`, with the robot account (anonymous without). */
async function bearerFromRealm(
  params: Record<string, string>,
  scope: string,
  basic: RegistryCredentials['basic'],
): Promise<string> {
  if (!params.realm) throw new Error('the registry asked for a token without naming its realm');
  const url = new URL(params.realm);
  if (params.service) url.searchParams.set('service', params.service);
  url.searchParams.set('scope', scope);
  const res = await fetch(url, {
    headers: basic ? { authorization: basicHeader(basic) } : {},
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const body = (await res.json().catch(() => ({}))) as { token?: string; access_token?: string };
  const token = body.token ?? body.access_token;
  if (!res.ok || !token) throw new Error(`the registry's token service answered ${res.status}`);
  return token;
}

/**
 * DELETE /v2/<repository>/manifests/<digest> (the tags on it go with it). A manifest already
 * gone is not an error; anything else the registry refuses is.
 */
export async function deleteManifest(
  baseUrl: string,
  repository: string,
  digest: string,
  credentials: RegistryCredentials,
): Promise<void> {
  const url = `${baseUrl}/v2/${repository}/manifests/${digest}`;
  const attempt = (authorization: string | undefined) =>
    fetch(url, {
      method: 'DELETE',
      headers: authorization ? { authorization } : {},
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  let res = await attempt(credentials.bearer ? `Bearer ${credentials.bearer}` : undefined);
  if (res.status === 401 && !credentials.bearer) {
    const challenge = parseChallenge(res.headers.get('www-authenticate'));
    await res.body?.cancel();
    if (challenge.scheme === 'basic' && credentials.basic)
      res = await attempt(basicHeader(credentials.basic));
    else if (challenge.scheme === 'bearer')
      res = await attempt(
        `Bearer ${await bearerFromRealm(challenge.params, `repository:${repository}:delete`, credentials.basic)}`,
      );
  }
  const text = await res.text().catch(() => '');
  if (res.status === 202 || res.status === 200 || res.status === 404) return;
  if (res.status === 405)
    throw new Error(
      `the registry does not allow deleting images (distribution: storage.delete.enabled; Harbor: the robot account's delete permission): ${text.slice(0, 300)}`,
    );
  throw new Error(
    `the registry refused to delete ${repository}@${digest}: ${res.status} ${text.slice(0, 300)}`,
  );
}
