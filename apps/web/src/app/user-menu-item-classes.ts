export const menuItemClasses =
  'flex w-full items-center gap-2 rounded-lg px-2.5 py-2 text-left text-sm text-zinc-700 outline-none hover:bg-zinc-100 focus:bg-zinc-100'
