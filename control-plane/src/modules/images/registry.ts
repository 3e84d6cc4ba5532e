// The platform's image registry as the images module uses it: where users' images live, and
// short-lived credentials scoped to exactly one repository and the actions a call needs. The
// implementation (registry-service.ts) speaks the registry's HTTP API and is the token server of
// the Docker token authentication protocol for the embedded registry.

export type RegistryAction = 'pull' | 'push';

/** What an agent hands Docker for one pull or push (the proto's RegistryAuth). */
export interface RegistryGrant {
  server_address: string;
  username: string;
  password: string;
}

export interface ImageRegistry {
  /** host[:port] as the agents' Docker engines reach it (the registry part of an image reference). */
  readonly host: string;
  /** The repository (without host and tag) of a user's saved image: under the user's own namespace. */
  repositoryFor(userId: number, imageId: number): string;
  /** Credentials valid for a few minutes for exactly these actions on exactly this repository. */
  grant(repository: string, actions: RegistryAction[]): RegistryGrant;
  /** Deletes a pushed image (its manifest by digest); an image already gone is not an error. */
  deleteImage(repository: string, digest: string): Promise<void>;
}
