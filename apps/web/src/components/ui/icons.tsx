import type { ReactNode } from 'react'
import { classNames } from '../../lib/class-names.ts'

type IconProps = { className?: string; strokeWidth?: string }

/**
 * An inline icon, decorative, so hidden from assistive technology: size-4 unless the caller
 * sets a size. `grid` 20 is the chat's finer set.
 */
function Icon({
  className,
  children,
  grid = 24,
  strokeWidth = grid === 20 ? '1.6' : '1.75',
}: IconProps & { children: ReactNode; grid?: 20 | 24 }) {
  const sized = /(^|\s)size-/.test(className ?? '')
  return (
    <svg
      viewBox={`0 0 ${grid} ${grid}`}
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={classNames('shrink-0', !sized && 'size-4', className)}
    >
      {children}
    </svg>
  )
}

export function ChevronDownIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="m7 10 5 5 5-5" />
    </Icon>
  )
}

export function PlusIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M12 5v14M5 12h14" />
    </Icon>
  )
}

export function ExternalLinkIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
    </Icon>
  )
}

export function TrashIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M4 7h16M10 11v6M14 11v6M6 7l1 12a1 1 0 0 0 1 1h8a1 1 0 0 0 1-1l1-12M9 7V4h6v3" />
    </Icon>
  )
}

export function RefreshIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M20 11a8 8 0 0 0-14.9-4M4 4v4h4M4 13a8 8 0 0 0 14.9 4M20 20v-4h-4" />
    </Icon>
  )
}

export function KeyIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <circle cx="8" cy="15" r="4" />
      <path d="m10.8 12.2 8.7-8.7M17 6l2.5 2.5M14.5 8.5 17 11" />
    </Icon>
  )
}

export function RocketIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M5 15c-1.5 1.3-2 4-2 6 2 0 4.7-.5 6-2M9 12a22 22 0 0 1 2-4 12.9 12.9 0 0 1 11-6c0 2.7-.8 7.5-6 11a22.4 22.4 0 0 1-4 2z" />
      <path d="M9 12H4s.6-3 2-4c1.6-1.1 5 0 5 0M12 15v5s3-.6 4-2c1.1-1.6 0-5 0-5" />
    </Icon>
  )
}

export function GlobeIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18" />
    </Icon>
  )
}

export function ChevronIcon(props: IconProps) {
  return (
    <Icon grid={20} {...props}>
      <path d="m7 5 5 5-5 5" />
    </Icon>
  )
}

export function CheckIcon(props: IconProps) {
  return (
    <Icon grid={20} {...props}>
      <path d="m5 10 3 3 7-7" />
    </Icon>
  )
}

export function CrossIcon(props: IconProps) {
  return (
    <Icon grid={20} {...props}>
      <path d="m6 6 8 8M14 6l-8 8" />
    </Icon>
  )
}

export function CircleIcon(props: IconProps) {
  return (
    <Icon grid={20} {...props}>
      <circle cx="10" cy="10" r="6" />
    </Icon>
  )
}

export function HourglassIcon(props: IconProps) {
  return (
    <Icon grid={20} {...props}>
      <path d="M6 3h8M6 17h8M7 3c0 4 6 4 6 7s-6 3-6 7M13 3c0 4-6 4-6 7s6 3 6 7" />
    </Icon>
  )
}

export function SendIcon(props: IconProps) {
  return (
    <Icon grid={20} {...props}>
      <path d="M10 16V4M5 9l5-5 5 5" />
    </Icon>
  )
}

export function ImageIcon(props: IconProps) {
  return (
    <Icon grid={20} {...props}>
      <rect x="3" y="4" width="14" height="12" rx="2" />
      <circle cx="7.5" cy="8.5" r="1.25" />
      <path d="m17 13-4-4-8 7" />
    </Icon>
  )
}

export function PanelIcon(props: IconProps) {
  return (
    <Icon grid={20} {...props}>
      <rect x="3" y="4" width="14" height="12" rx="2" />
      <path d="M8 4v12" />
    </Icon>
  )
}

export function ChatBubbleIcon(props: IconProps) {
  return (
    <Icon grid={20} {...props}>
      <path d="M4 5h12v8H9l-4 3v-3H4z" />
    </Icon>
  )
}

export function LockIcon(props: IconProps) {
  return (
    <Icon strokeWidth="1.5" {...props}>
      <path d="M7 11V8a5 5 0 0 1 10 0v3M6 11h12v9H6z" />
    </Icon>
  )
}

export function UnlockIcon(props: IconProps) {
  return (
    <Icon strokeWidth="1.5" {...props}>
      <path d="M7 11V8a5 5 0 0 1 9.6-2M6 11h12v9H6z" />
    </Icon>
  )
}

export function WarningIcon(props: IconProps) {
  return (
    <Icon strokeWidth="1.5" {...props}>
      <path d="M12 8v5m0 3.5v.01M10.3 3.9 2.6 17.2A2 2 0 0 0 4.3 20h15.4a2 2 0 0 0 1.7-2.8L13.7 3.9a2 2 0 0 0-3.4 0Z" />
    </Icon>
  )
}

export function AppsIcon(props: IconProps) {
  return (
    <Icon strokeWidth="1.5" {...props}>
      <path d="M4 5h7v7H4zM13 5h7v7h-7zM4 14h7v5H4zM13 14h7v5h-7z" />
    </Icon>
  )
}

export function PeopleIcon(props: IconProps) {
  return (
    <Icon grid={20} strokeWidth="1.5" {...props}>
      <path d="M4 16v-1a3 3 0 0 1 3-3h2a3 3 0 0 1 3 3v1M8 9a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5Zm6 3h1a2 2 0 0 1 2 2v1m-3-6.5a2 2 0 1 0 0-4" />
    </Icon>
  )
}

export function BackIcon(props: IconProps) {
  return (
    <Icon grid={20} {...props}>
      <path d="M12 5l-5 5 5 5" />
    </Icon>
  )
}

export function GearIcon(props: IconProps) {
  return (
    <Icon strokeWidth="1.5" {...props}>
      <path d="M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6Z" />
      <path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5v.2a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1h.2a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1Z" />
    </Icon>
  )
}

export function PersonIcon(props: IconProps) {
  return (
    <Icon strokeWidth="1.5" {...props}>
      <path d="M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-7 8v-1a5 5 0 0 1 5-5h4a5 5 0 0 1 5 5v1" />
    </Icon>
  )
}

export function ShieldIcon(props: IconProps) {
  return (
    <Icon strokeWidth="1.5" {...props}>
      <path d="M12 3 5 6v5c0 4.5 3 8.3 7 10 4-1.7 7-5.5 7-10V6l-7-3Z" />
    </Icon>
  )
}

/** Filled, unlike the others. */
export function StopIcon({ className }: IconProps) {
  return (
    <svg viewBox="0 0 20 20" aria-hidden="true" className={className ?? 'size-4'}>
      <rect x="5" y="5" width="10" height="10" rx="2" fill="currentColor" />
    </svg>
  )
}

/** An arrow over a dashed box: pointing at an element of the preview (Select mode). */
export function SelectElementIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M4 9V5a1 1 0 0 1 1-1h4M15 4h4a1 1 0 0 1 1 1v4M4 15v4a1 1 0 0 0 1 1h4" />
      <path d="m13 13 7.5 2.5-3 1.5-1.5 3z" />
    </Icon>
  )
}
