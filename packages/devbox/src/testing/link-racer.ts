/**
 * TEST FIXTURE process playing app code racing the file tools: swaps workspace entries for links to
 * a secret outside and back; prints `ready`, then the swap count when stdin closes.
 * Usage: node link-racer.ts <workspace> <secret file> <secret folder> <max seconds>
 */
import {
  lstatSync,
  mkdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { setImmediate } from 'node:timers/promises'

const [workspace, secretFile, secretFolder, maxSeconds] = process.argv.slice(2)
if (!workspace || !secretFile || !secretFolder) {
  throw new Error('Usage: node link-racer.ts <workspace> <secret file> <secret folder> <seconds>')
}
const deadline = Date.now() + Number(maxSeconds ?? 60) * 1000
let stopped = false
process.stdin.on('end', () => {
  stopped = true
})
process.stdin.resume()

// The tools may delete anything at any moment, so every step may fail; the racer carries on.
const attempt = (step: () => void) => {
  try {
    step()
    return true
  } catch {
    return false
  }
}
const kindOf = (path: string) => {
  const stats = lstatSync(path, { throwIfNoEntry: false })
  return stats?.isSymbolicLink()
    ? 'link'
    : stats?.isDirectory()
      ? 'folder'
      : stats
        ? 'file'
        : 'none'
}

/** Only this process makes links, so a path it has just seen as a real folder stays one (or goes). */
function restoreRealFolder(folder: string, files: Record<string, string>) {
  if (kindOf(folder) === 'link') attempt(() => unlinkSync(folder))
  if (kindOf(`${folder}.away`) === 'folder') attempt(() => renameSync(`${folder}.away`, folder))
  if (kindOf(folder) === 'none') attempt(() => mkdirSync(folder))
  if (kindOf(folder) !== 'folder') return false
  // The tools made the folder afresh meanwhile: the copy put away is stale.
  if (kindOf(`${folder}.away`) === 'folder')
    attempt(() => rmSync(`${folder}.away`, { recursive: true }))
  for (const [name, content] of Object.entries(files)) {
    if (kindOf(`${folder}/${name}`) === 'none')
      attempt(() => writeFileSync(`${folder}/${name}`, content))
  }
  return true
}

function swapFileForLink(file: string) {
  attempt(() => rmSync(`${file}.link`, { force: true }))
  return (
    attempt(() => symlinkSync(secretFile as string, `${file}.link`)) &&
    attempt(() => renameSync(`${file}.link`, file))
  )
}

function swapFileBack(file: string, content: string) {
  return (
    attempt(() => writeFileSync(`${file}.new`, content)) &&
    attempt(() => renameSync(`${file}.new`, file))
  )
}

function swapFolderForLink(folder: string) {
  if (kindOf(folder) !== 'folder' || kindOf(`${folder}.away`) !== 'none') return false
  return (
    attempt(() => renameSync(folder, `${folder}.away`)) &&
    attempt(() => symlinkSync(secretFolder as string, folder))
  )
}

let swaps = 0
let announced = false
while (!stopped && Date.now() < deadline) {
  const folder = `${workspace}/folder`
  const sub = `${folder}/sub`
  if (swapFileForLink(`${workspace}/file.txt`)) swaps++
  if (restoreRealFolder(folder, { 'note.txt': 'harmless note\n' })) {
    if (swapFileForLink(`${folder}/note.txt`)) swaps++
    if (restoreRealFolder(sub, { 'deep.txt': 'harmless deep\n' }) && swapFolderForLink(sub)) swaps++
  }
  await setImmediate()
  if (swapFolderForLink(folder)) swaps++
  swapFileBack(`${workspace}/file.txt`, 'harmless file\n')
  await setImmediate()
  if (restoreRealFolder(folder, { 'note.txt': 'harmless note\n' })) {
    swapFileBack(`${folder}/note.txt`, 'harmless note\n')
    restoreRealFolder(sub, { 'deep.txt': 'harmless deep\n' })
  }
  if (!announced && swaps > 0) {
    announced = true
    process.stdout.write('ready\n')
  }
  await setImmediate()
}
process.stdout.write(`swaps ${swaps}\n`)
process.exit(0)
