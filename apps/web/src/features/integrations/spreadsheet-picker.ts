/**
 * The spreadsheet integration's file picker (docs/product/integrations.md "Settings screen"):
 * the Google Picker API, loaded from a script URL the server names (tests serve a stand-in).
 * Picking files is what grants the drive.file scope access to them.
 */

export const DEFAULT_PICKER_SCRIPT_URL = 'https://apis.google.com/js/api.js'
export const PICKER_TITLE = 'Select Spreadsheets to Grant Access'
export const PICKER_LOAD_FAILED = 'Failed to load Google Picker API.'
export const PICKER_OPEN_FAILED = 'Failed to load file picker. Please try reconnecting.'

type PickerData = { action: string; docs?: unknown[] }
type PickerBuilder = {
  addView(view: unknown): PickerBuilder
  enableFeature(feature: unknown): PickerBuilder
  setOAuthToken(token: string): PickerBuilder
  setAppId(appId: string): PickerBuilder
  setTitle(title: string): PickerBuilder
  setCallback(callback: (data: PickerData) => void): PickerBuilder
  build(): { setVisible(visible: boolean): void }
}
type PickerNamespace = {
  PickerBuilder: new () => PickerBuilder
  DocsView: new (viewId: unknown) => unknown
  ViewId: { SPREADSHEETS: unknown }
  Feature: { MULTISELECT_ENABLED: unknown }
  Action: { PICKED: string; CANCEL: string }
}
type PickerWindow = Window & {
  gapi?: { load(name: string, options: { callback: () => void; onerror?: () => void }): void }
  google?: { picker?: PickerNamespace }
}

const loadedScripts = new Map<string, Promise<void>>()

function loadScript(url: string): Promise<void> {
  let loading = loadedScripts.get(url)
  if (!loading) {
    loading = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script')
      script.src = url
      script.async = true
      script.onload = () => resolve()
      script.onerror = () => {
        loadedScripts.delete(url)
        script.remove()
        reject(new Error(PICKER_LOAD_FAILED))
      }
      document.head.append(script)
    })
    loadedScripts.set(url, loading)
  }
  return loading
}

async function loadPickerApi(scriptUrl: string): Promise<PickerNamespace> {
  const pickerWindow = window as PickerWindow
  // Loaded once per page (or already there).
  if (!pickerWindow.gapi) await loadScript(scriptUrl)
  const gapi = pickerWindow.gapi
  if (!gapi) throw new Error(PICKER_LOAD_FAILED)
  await new Promise<void>((resolve, reject) =>
    gapi.load('picker', {
      callback: resolve,
      onerror: () => reject(new Error(PICKER_LOAD_FAILED)),
    }),
  )
  const picker = pickerWindow.google?.picker
  if (!picker) throw new Error(PICKER_LOAD_FAILED)
  return picker
}

/** Google's app id is the project number, the leading digits of a client id. */
function appIdOf(clientId: string): string | undefined {
  return /^(\d+)-/.exec(clientId)?.[1]
}

/** Opens the multi-select picker; resolves with how many files were picked (0 when cancelled). */
export async function pickSpreadsheets(options: {
  accessToken: string
  clientId: string
  scriptUrl?: string | null
}): Promise<number> {
  const picker = await loadPickerApi(options.scriptUrl || DEFAULT_PICKER_SCRIPT_URL)
  return new Promise<number>((resolve, reject) => {
    try {
      let builder = new picker.PickerBuilder()
        .addView(new picker.DocsView(picker.ViewId.SPREADSHEETS))
        .enableFeature(picker.Feature.MULTISELECT_ENABLED)
        .setOAuthToken(options.accessToken)
        .setTitle(PICKER_TITLE)
        .setCallback((data) => {
          if (data.action === picker.Action.PICKED) resolve(data.docs?.length ?? 0)
          else if (data.action === picker.Action.CANCEL) resolve(0)
        })
      const appId = appIdOf(options.clientId)
      if (appId) builder = builder.setAppId(appId)
      builder.build().setVisible(true)
    } catch {
      reject(new Error(PICKER_OPEN_FAILED))
    }
  })
}
