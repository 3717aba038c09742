import { Link } from '@tanstack/react-router'
import { GearIcon, PersonIcon, ShieldIcon, WarningIcon } from '../components/ui/icons.tsx'
import { useAdminStatus } from '../features/admin/use-admin-status.ts'
import { menuItemClasses } from './user-menu-item-classes.ts'

/**
 * The user menu's places (docs/product/README.md "Screens and routes"): Account, Settings, Error
 * Monitoring and, for platform admins, Admin. Leaving for one closes the menu.
 */
export function PlaceMenuItems({ onNavigate }: { onNavigate: () => void }) {
  const admin = useAdminStatus()
  return (
    <div>
      <Link to="/account" role="menuitem" className={menuItemClasses} onClick={() => onNavigate()}>
        <PersonIcon />
        Account
      </Link>
      <Link to="/settings" role="menuitem" className={menuItemClasses} onClick={() => onNavigate()}>
        <GearIcon />
        Settings
      </Link>
      <Link to="/errors" role="menuitem" className={menuItemClasses} onClick={() => onNavigate()}>
        <WarningIcon />
        Error Monitoring
      </Link>
      {admin.data?.isAdmin && (
        <Link to="/admin" role="menuitem" className={menuItemClasses} onClick={() => onNavigate()}>
          <ShieldIcon />
          Admin
        </Link>
      )}
    </div>
  )
}
