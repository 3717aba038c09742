import { ADMIN_USERS_PAGE_SIZE, type AdminUserSort } from '@sprout/protocol/api/admin-users.ts'
import { useState } from 'react'
import { Alert } from '../../../components/ui/alert.tsx'
import { Button } from '../../../components/ui/button.tsx'
import { EmptyState } from '../../../components/ui/empty-state.tsx'
import { CenteredSpinner } from '../../../components/ui/spinner.tsx'
import { inputClasses } from '../../../components/ui/text-field.tsx'
import { useDebouncedValue } from '../../../hooks/use-debounced-value.ts'
import { useAdminUsers } from './use-admin-users.ts'
import { useUserActions } from './use-user-actions.ts'
import { UserActionDialogs } from './user-action-dialogs.tsx'
import { UserRow } from './user-row.tsx'
import { columns, pageRange, userTexts } from './user-texts.ts'

const searchDelayMs = 300

/** The Users tab (docs/product/admin.md "Users tab"): search, a page of users, their actions. */
export function UsersPanel() {
  const [search, setSearch] = useState('')
  const [sort, setSort] = useState<AdminUserSort>('newest')
  const query = useDebouncedValue(search.trim(), searchDelayMs)
  // A new search or order starts again at its first page.
  const [paging, setPaging] = useState({ key: '', page: 1 })
  const key = `${sort}:${query}`
  const page = paging.key === key ? paging.page : 1
  const users = useAdminUsers({ query, page, sort })
  const actions = useUserActions()

  return (
    <section aria-label="Users" className="flex flex-col gap-4">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <input
          type="search"
          aria-label={userTexts.searchLabel}
          placeholder={userTexts.searchPlaceholder}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          className={`${inputClasses} sm:max-w-sm`}
        />
        <select
          aria-label={userTexts.sortLabel}
          value={sort}
          onChange={(event) => setSort(event.target.value as AdminUserSort)}
          className={`${inputClasses} sm:w-44`}
        >
          <option value="newest">{userTexts.sortNewest}</option>
          <option value="name">{userTexts.sortName}</option>
        </select>
      </div>
      {actions.status && (
        <Alert tone={actions.status.tone}>
          {actions.status.text}
          {actions.status.link && (
            <input
              readOnly
              aria-label="Reset link"
              value={actions.status.link}
              onFocus={(event) => event.target.select()}
              className={`${inputClasses} mt-2 font-mono text-xs`}
            />
          )}
        </Alert>
      )}
      {users.isPending ? (
        <CenteredSpinner label={userTexts.loading} />
      ) : users.isError ? (
        <Alert>{users.error.message}</Alert>
      ) : users.data.users.length === 0 ? (
        <EmptyState
          title={userTexts.emptyTitle}
          description={query ? userTexts.emptySearch : userTexts.emptyAll}
        />
      ) : (
        <>
          <div className="overflow-x-auto rounded-2xl border border-zinc-200 bg-white">
            <table className="w-full text-left text-sm">
              <thead className="bg-zinc-50 text-xs font-medium text-zinc-500">
                <tr>
                  {columns.map((column) => (
                    <th key={column} scope="col" className="px-3 py-2">
                      {column}
                    </th>
                  ))}
                  <th scope="col" className="px-3 py-2">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {users.data.users.map((user) => (
                  <UserRow
                    key={user.id}
                    user={user}
                    mailConfigured={users.data.mailConfigured}
                    busy={actions.busy}
                    onChoose={actions.choose}
                  />
                ))}
              </tbody>
            </table>
          </div>
          <div className="flex items-center justify-between gap-3 text-sm text-zinc-500">
            <span>
              {pageRange(
                (page - 1) * ADMIN_USERS_PAGE_SIZE + 1,
                (page - 1) * ADMIN_USERS_PAGE_SIZE + users.data.users.length,
                users.data.total,
              )}
            </span>
            <div className="flex gap-2">
              <Button
                variant="secondary"
                size="sm"
                disabled={page <= 1}
                onClick={() => setPaging({ key, page: page - 1 })}
              >
                {userTexts.previous}
              </Button>
              <Button
                variant="secondary"
                size="sm"
                disabled={page * ADMIN_USERS_PAGE_SIZE >= users.data.total}
                onClick={() => setPaging({ key, page: page + 1 })}
              >
                {userTexts.next}
              </Button>
            </div>
          </div>
        </>
      )}
      <UserActionDialogs actions={actions} />
    </section>
  )
}
