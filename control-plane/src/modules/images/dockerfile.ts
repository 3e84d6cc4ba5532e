import type { ImageContents, PackageVersion } from './contract.js';

/** What a Dockerfile line may carry of a recorded name or version (no newline, no shell quoting). */
const SAFE = /^[A-Za-z0-9][A-Za-z0-9.+~:_=@/-]*$/;

/** `repo[:tag][@digest]` → `repo` (a registry host's port is not a tag). */
function repositoryOf(reference: string): string {
  const bare = reference.replace(/@.*$/, '');
  const slash = bare.lastIndexOf('/');
  const colon = bare.lastIndexOf(':');
  return colon > slash ? bare.slice(0, colon) : bare;
}

/** The base image pinned by the digest recorded at save time. */
function fromLines(contents: ImageContents): string[] {
  const { image, digest } = contents.base;
  // The agent records the base's registry digest ("sha256:…", or "repo@sha256:…"), or for an
  // image never pulled from a registry (built locally) its id, which no registry serves: the
  // comment says what to write then.
  const at = digest.lastIndexOf('@');
  if (at > 0) return [`FROM ${digest.slice(0, at)}@${digest.slice(at + 1)}`];
  if (!/^sha256:[0-9a-f]{64}$/.test(digest)) {
    return ['# The base image has no recorded digest: FROM names it as it was named.', `FROM ${image}`];
  }
  return [
    `# Base image ${image}, pinned by the digest recorded when the image was saved`,
    `# (for a base built locally, which has no registry digest, write FROM ${image} instead).`,
    `FROM ${repositoryOf(image)}@${digest}`,
  ];
}

function continued(command: string, items: string[], tail?: string): string {
  const lines = [`RUN ${command} \\`, ...items.map((i) => `      ${i} \\`)];
  if (tail) lines.push(`    && ${tail}`);
  else lines[lines.length - 1] = (lines[lines.length - 1] as string).replace(/ \\$/, '');
  return lines.join('\n');
}

/**
 * A Dockerfile that rebuilds a saved image's environment from its base: the base pinned by
 * digest, the Debian/Ubuntu packages it added pinned to their versions, the pip packages pinned,
 * and a comment listing what it cannot reproduce (conda packages, files written by hand).
 */
export function dockerfile(
  image: { name: string; tag: string; digest: string | null },
  contents: ImageContents,
): string {
  const out: string[] = [
    `# Rebuilds the environment of ${image.name}:${image.tag}${image.digest ? ` (${image.digest})` : ''}`,
    '# generated from what was recorded when it was saved.',
  ];
  out.push(...fromLines(contents), '');
  const skipped: string[] = [];
  const safe = (list: PackageVersion[], what: string) =>
    list.filter((p) => {
      const ok = SAFE.test(p.name) && SAFE.test(p.version);
      if (!ok) skipped.push(`${what} ${p.name} ${p.version}`.replace(/\s+/g, ' ').slice(0, 120));
      return ok;
    });

  const apt = safe(contents.apt_added ?? [], 'apt');
  if (apt.length > 0) {
    out.push(
      continued(
        'apt-get update && apt-get install -y --no-install-recommends',
        apt.map((p) => `${p.name}=${p.version}`),
        'rm -rf /var/lib/apt/lists/*',
      ),
      '',
    );
  }
  const pip = safe(contents.pip ?? [], 'pip');
  if (pip.length > 0) {
    out.push(
      continued(
        'pip install --no-cache-dir',
        pip.map((p) => `${p.name}==${p.version}`),
      ),
      '',
    );
  }

  const notes: string[] = [];
  if (contents.apt_added === null) notes.push('Debian/Ubuntu packages (not a dpkg image, or not readable)');
  if (contents.pip === null) notes.push('pip packages (no pip in the image)');
  if (contents.conda && contents.conda.length > 0) {
    notes.push(`${contents.conda.length} conda packages (conda list --export; install them with conda)`);
  }
  const added = contents.layers.filter((l) => l.added);
  if (added.length > 0) {
    notes.push(
      `files written outside the package managers (${added.length} saved layer(s), ${contents.added_bytes} bytes in all)`,
    );
  }
  notes.push('data in mounted volumes (never part of an image)');
  for (const s of skipped) notes.push(`${s} (a name or version a Dockerfile cannot carry as is)`);
  out.push('# Not reproduced by this file:', ...notes.map((n) => `#   - ${n}`));
  return `${out.join('\n')}\n`;
}
