// 立即部署 while signed out: the app market remembers the chosen image, the light-instance
// market preselects it after the sign-in. Shared by both features (neither imports the other).

type EntityId = number | string;

/** What 立即部署 needs of an app image (the app market's AppImage has it). */
export interface DeployableImage {
  name: string;
  framework_version_id?: EntityId;
  framework: { id?: EntityId; name: string; version: { id?: EntityId; name: string } };
}

/** Where 立即部署 remembers the visitor's choice while they sign in. */
export const PENDING_DEPLOY_KEY = 'pendingDeploy';
/** A choice older than this is stale: the visitor has moved on. */
export const PENDING_DEPLOY_TTL_MS = 60 * 60 * 1000;

export interface PendingDeploy {
  framework: string;
  version: string;
  imageType: 'public';
  imageName: string;
  savedAt: number;
}

function idOf(value: EntityId | undefined, fallback: string): string {
  return value === undefined || value === '' ? fallback : String(value);
}

/** The framework and version a card preselects in the market: ids when present, else names. */
export function deployChoice(image: DeployableImage, now = Date.now()): PendingDeploy {
  return {
    framework: idOf(image.framework.id, image.framework.name),
    version: idOf(image.framework.version.id ?? image.framework_version_id, image.framework.version.name),
    imageType: 'public',
    imageName: image.name,
    savedAt: now,
  };
}

type MarketChoice = Pick<PendingDeploy, 'framework' | 'version' | 'imageType'>;

/** framework=<id>&version=<id>&imageType=public: the market's preselection query. */
export function marketQueryFor(choice: MarketChoice): URLSearchParams {
  return new URLSearchParams({
    framework: choice.framework,
    version: choice.version,
    imageType: choice.imageType,
  });
}

export function marketPathFor(choice: MarketChoice): string {
  return `/market?${marketQueryFor(choice)}`;
}

export function storePendingDeploy(choice: PendingDeploy): void {
  try {
    window.localStorage.setItem(PENDING_DEPLOY_KEY, JSON.stringify(choice));
  } catch {
    // Storage disabled: the visitor picks the image again after signing in.
  }
}

function parse(raw: string | null, now: number): PendingDeploy | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<PendingDeploy>;
    if (typeof value.framework !== 'string' || typeof value.version !== 'string') return null;
    if (typeof value.savedAt !== 'number' || now - value.savedAt > PENDING_DEPLOY_TTL_MS) return null;
    return {
      framework: value.framework,
      version: value.version,
      imageType: 'public',
      imageName: typeof value.imageName === 'string' ? value.imageName : '',
      savedAt: value.savedAt,
    };
  } catch {
    return null;
  }
}

/** Reads and forgets the stored choice. */
export function takePendingDeploy(now = Date.now()): PendingDeploy | null {
  try {
    const raw = window.localStorage.getItem(PENDING_DEPLOY_KEY);
    window.localStorage.removeItem(PENDING_DEPLOY_KEY);
    return parse(raw, now);
  } catch {
    return null;
  }
}
