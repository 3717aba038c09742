/**
 * A stand-in for the Google Picker API script (https://apis.google.com/js/api.js), served to the
 * browser by `page.route`: the same `gapi.load('picker')` and `google.picker.PickerBuilder`
 * calls, drawing a plain dialog that lists three spreadsheets to tick and a Select button.
 */
export const standInPickerScript = `
(() => {
  const Action = { PICKED: 'picked', CANCEL: 'cancel' }
  class PickerBuilder {
    constructor() { this.options = { features: [] } }
    addView(view) { this.options.view = view; return this }
    enableFeature(feature) { this.options.features.push(feature); return this }
    setOAuthToken(token) { this.options.token = token; return this }
    setAppId(appId) { this.options.appId = appId; return this }
    setTitle(title) { this.options.title = title; return this }
    setCallback(callback) { this.options.callback = callback; return this }
    build() {
      const options = this.options
      return {
        setVisible() {
          const dialog = document.createElement('div')
          dialog.setAttribute('role', 'dialog')
          dialog.setAttribute('aria-label', options.title)
          dialog.dataset.token = options.token
          dialog.dataset.multiselect = String(options.features.includes('multiselect'))
          const files = ['Budget', 'Roadmap', 'Contacts']
          dialog.innerHTML = '<h2>' + options.title + '</h2>' + files
            .map((name) => '<label><input type="checkbox" value="' + name + '">' + name + '</label>')
            .join('') + '<button>Select</button><button>Cancel</button>'
          const [select, cancel] = dialog.querySelectorAll('button')
          select.onclick = () => {
            const docs = [...dialog.querySelectorAll('input:checked')].map((box) => ({ name: box.value }))
            dialog.remove()
            options.callback({ action: Action.PICKED, docs })
          }
          cancel.onclick = () => { dialog.remove(); options.callback({ action: Action.CANCEL }) }
          document.body.append(dialog)
        },
      }
    }
  }
  window.gapi = { load: (_name, settings) => setTimeout(settings.callback) }
  window.google = {
    picker: {
      PickerBuilder,
      DocsView: class { constructor(viewId) { this.viewId = viewId } },
      ViewId: { SPREADSHEETS: 'spreadsheets' },
      Feature: { MULTISELECT_ENABLED: 'multiselect' },
      Action,
    },
  }
})()
`
