// What every generator module is given: the run's settings and the organisation it works in.
import type { Calendar } from './calendar';
import type { ClientIdentity } from './catalog';
import type { IdSource, Rng } from './random';
import type { OrgShape, ScaleShape } from './scales';

export interface SeedContext {
  seed: number;
  shape: ScaleShape;
  calendar: Calendar;
}

export interface ClientModel extends ClientIdentity {
  id: string;
  index: number;
  createdAt: string;
}

export interface UserModel {
  id: string;
  email: string;
  name: string;
  role: 'admin' | 'member';
  createdAt: string;
  membershipId: string;
}

export interface OrgModel {
  index: number;
  id: string;
  slug: string;
  name: string;
  createdAt: string;
  shape: OrgShape;
  /** The organisation's root stream; modules fork it by name. */
  rng: Rng;
  ids: IdSource;
  clients: ClientModel[];
  users: UserModel[];
  /** Clients the member users may see (admins see all and get no rows). */
  memberClientIds: string[];
}

/** The client that owns the i-th resource of a kind: resources are spread round-robin over clients. */
export function clientOf(org: OrgModel, index: number): ClientModel {
  const client = org.clients[index % org.clients.length];
  if (!client) throw new Error(`organisation ${org.slug} has no clients`);
  return client;
}
