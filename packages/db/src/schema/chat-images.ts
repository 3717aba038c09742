import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { organization, user } from './auth.ts'
import { conversations } from './conversations.ts'

/**
 * An image a user attached to a chat message (docs/product/images.md): uploaded first (no
 * conversation yet), then bound to the conversation of the message that named it; it goes with
 * the conversation and with its uploader's account. Its bytes are a file named by its id
 * (docs/decisions/043-chat-images.md).
 */
export const chatImages = pgTable(
  'chat_images',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** Null until a message names it. */
    conversationId: text('conversation_id').references(() => conversations.id, {
      onDelete: 'cascade',
    }),
    /** image/png | image/jpeg | image/webp | image/gif, read from its bytes. */
    mediaType: text('media_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    size: integer('size').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [
    index('chat_images_conversation_id_idx').on(table.conversationId),
    index('chat_images_user_id_idx').on(table.userId, table.createdAt),
  ],
)
