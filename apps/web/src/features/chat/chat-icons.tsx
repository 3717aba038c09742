import type { ReactNode } from 'react'

// Small inline icons for the chat; decorative, so hidden from assistive technology.

type IconProps = { className?: string }

function Icon({ className, children }: IconProps & { children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 20 20"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className ?? 'size-4'}
    >
      {children}
    </svg>
  )
}

export function ChevronIcon({ className }: IconProps) {
  return (
    <Icon className={className}>
      <path d="m7 5 5 5-5 5" />
    </Icon>
  )
}

export function CheckIcon({ className }: IconProps) {
  return (
    <Icon className={className}>
      <path d="m5 10 3 3 7-7" />
    </Icon>
  )
}

export function CrossIcon({ className }: IconProps) {
  return (
    <Icon className={className}>
      <path d="m6 6 8 8M14 6l-8 8" />
    </Icon>
  )
}

export function CircleIcon({ className }: IconProps) {
  return (
    <Icon className={className}>
      <circle cx="10" cy="10" r="6" />
    </Icon>
  )
}

export function HourglassIcon({ className }: IconProps) {
  return (
    <Icon className={className}>
      <path d="M6 3h8M6 17h8M7 3c0 4 6 4 6 7s-6 3-6 7M13 3c0 4-6 4-6 7s6 3 6 7" />
    </Icon>
  )
}

export function PlusIcon({ className }: IconProps) {
  return (
    <Icon className={className}>
      <path d="M10 4v12M4 10h12" />
    </Icon>
  )
}

export function StopIcon({ className }: IconProps) {
  return (
    <svg viewBox="0 0 20 20" aria-hidden="true" className={className ?? 'size-4'}>
      <rect x="5" y="5" width="10" height="10" rx="2" fill="currentColor" />
    </svg>
  )
}

export function SendIcon({ className }: IconProps) {
  return (
    <Icon className={className}>
      <path d="M10 16V4M5 9l5-5 5 5" />
    </Icon>
  )
}

export function PanelIcon({ className }: IconProps) {
  return (
    <Icon className={className}>
      <rect x="3" y="4" width="14" height="12" rx="2" />
      <path d="M8 4v12" />
    </Icon>
  )
}

export function ChatBubbleIcon({ className }: IconProps) {
  return (
    <Icon className={className}>
      <path d="M4 5h12v8H9l-4 3v-3H4z" />
    </Icon>
  )
}
