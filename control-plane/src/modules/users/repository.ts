import type { Knex } from 'knex';
import { type User, UserModel } from './model.js';

function plain(model: UserModel): User {
  return { ...model.toJSON() } as User;
}

export class UsersRepository {
  async findById(id: number): Promise<User | undefined> {
    const row = await UserModel.query().findById(id);
    return row ? plain(row) : undefined;
  }

  async findByUsername(username: string): Promise<User | undefined> {
    const row = await UserModel.query().whereRaw('lower(username) = lower(?)', [username]).first();
    return row ? plain(row) : undefined;
  }

  async insert(
    values: { username: string; password_hash: string; email: string | null; is_admin?: boolean },
    trx?: Knex.Transaction,
  ): Promise<User> {
    const row = await UserModel.query(trx).insert(values).returning('*');
    return plain(row);
  }

  async updatePasswordHash(id: number, passwordHash: string): Promise<void> {
    await UserModel.query().patch({ password_hash: passwordHash }).where('id', id);
  }

  async setAdmin(id: number, isAdmin: boolean): Promise<void> {
    await UserModel.query().patch({ is_admin: isAdmin }).where('id', id);
  }
}
