// QuickCart's page script — progressive enhancement, as native ES modules. Without it
// every page still works: links navigate, forms post and answer 303 back to the row they
// came from with a one-shot notice, the badge is as fresh as the last page load, the tab
// order changes with Move up / Move down. With it, one module per concern, each with one
// exported start:
//   · live-badge.js    the badge follows the cart live, in every tab (and a notice when the
//                      cart changed in another tab, if Notifications are on); the page's own
//                      "N in cart" and cart rows follow it too, and an "Offline" bar shows
//                      while the stream is down
//   · forms.js         forms post with fetch and the page is morphed in place (morph.js):
//                      scroll, focus and history stay; the server's notice shows as a message
//   · tab-places.js    each tab keeps its scroll position; the current tab again goes to its
//                      root, at the top
//   · minimise.js      the tab bar shrinks while you scroll down
//   · tab-order.js     Profile → Customize tab bar: drag and drop
//   · preferences.js   the theme applies as soon as it is chosen (no Save press); theme,
//                      layout and notifications follow across open tabs
//   · order-live.js    an order's move (event: order) re-reads Profile or the order's page
//                      and says so politely
//   · install.js       the service worker and a new release's take-over, Profile's
//                      "Install the app", the offline page's last-known count
//   · devices.js       a code's live countdown; "A new device joined" as it happens
//   · drafts.js        checkout's delivery details, as typed, survive a reload or Back
// page.js holds what they share. Each leaves quietly when its page or browser lacks what it
// needs; the live badge and the forms work together through the small interface the live
// badge's start returns. This entry starts them in the order they rely on.
//
// Imports are relative ('./x.js'); the server serves each module with its imports at
// versioned addresses, so one release's modules only ever load each other (ScriptModules).

// What the modules below import, named here too so the browser fetches every module in one
// round rather than each after its importer arrives.
import './morph.js';
import './page.js';

import { start as startDevices } from './devices.js';
import { start as startDrafts } from './drafts.js';
import { start as startForms } from './forms.js';
import { start as startInstall } from './install.js';
import { start as startLiveBadge } from './live-badge.js';
import { start as startMinimise } from './minimise.js';
import { start as startOrderLive } from './order-live.js';
import { start as startPreferences } from './preferences.js';
import { start as startTabOrder } from './tab-order.js';
import { start as startTabPlaces } from './tab-places.js';

const live = startLiveBadge();
startPreferences();
startForms(live);
startOrderLive(live);
startTabPlaces();   // before startMinimise, which takes the restored position as its start
startMinimise();
startTabOrder();
startInstall();
startDevices();
startDrafts();
